/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * What the key-value store, the YCSB binding, the gRPC example, the system benchmarks and the microbenchmarks
 * share, and nothing module-specific:
 * <ul>
 *   <li>{@link io.github.nettyucx.support.NettyTransport}: a Netty transport chosen by its command-line name
 *       (nio, epoll, io_uring, ucx, ucx-tcp), with its event loop group, its channel classes and why it cannot
 *       run here when it cannot;</li>
 *   <li>{@link io.github.nettyucx.support.JavaCommand}, {@link io.github.nettyucx.support.ChildProcess} and
 *       {@link io.github.nettyucx.support.OutputLines}: server and client JVMs started on this class path with
 *       the project's system properties, read with time limits, and never left running;</li>
 *   <li>{@link io.github.nettyucx.support.Percentiles}, {@link io.github.nettyucx.support.Medians},
 *       {@link io.github.nettyucx.support.Spread} (min, median and max over runs; per-run ratios),
 *       {@link io.github.nettyucx.support.ResultColumns} / {@link io.github.nettyucx.support.ResultRow},
 *       {@link io.github.nettyucx.support.ByteSizes} and {@link io.github.nettyucx.support.MachineFacts}: the
 *       statistics of latency and throughput results, how they travel between JVMs and what a report says
 *       about the machine.</li>
 * </ul>
 * What each benchmark measures, its columns, its command line and its report stay in its own module.
 */
package io.github.nettyucx.support;
