/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * What every benchmark target (echo, grpc, frameworks, ycsb, jmh) shares, and nothing target-specific:
 * <ul>
 *   <li>{@link io.github.nettyucx.benchmarks.core.JavaCommand},
 *       {@link io.github.nettyucx.benchmarks.core.ChildProcess}
 *       and {@link io.github.nettyucx.benchmarks.core.OutputLines}: server and client JVMs started on this class
 *       path with the project's system properties, read with time limits, and never left running;</li>
 *   <li>{@link io.github.nettyucx.benchmarks.core.Neighbours} and {@link io.github.nettyucx.benchmarks.core.BusyJvm}:
 *       the load a shared machine puts beside a benchmark;</li>
 *   <li>{@link io.github.nettyucx.benchmarks.core.Medians},
 *       {@link io.github.nettyucx.benchmarks.core.Spread} (min, median and max over runs; per-run ratios),
 *       {@link io.github.nettyucx.benchmarks.core.ResultColumns} /
 *       {@link io.github.nettyucx.benchmarks.core.ResultRow},
 *       {@link io.github.nettyucx.benchmarks.core.ByteSizes} and
 *       {@link io.github.nettyucx.benchmarks.core.MachineFacts}: the statistics of latency and throughput results,
 *       how they travel between JVMs and what a report says about the machine (percentiles of
 *       latencies come from HdrHistogram, in each target);</li>
 *   <li>{@link io.github.nettyucx.benchmarks.core.PngCharts} and
 *       {@link io.github.nettyucx.benchmarks.core.MarkdownTable}: how reports write their charts and tables.</li>
 * </ul>
 * The transport chosen by name is {@code io.github.nettyucx.support.NettyTransport} (support/), which the examples
 * share too. What each benchmark measures, its columns, its command line and its report stay in its own module.
 */
package io.github.nettyucx.benchmarks.core;
