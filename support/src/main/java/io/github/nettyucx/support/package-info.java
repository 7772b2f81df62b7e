/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * What the key-value store, the YCSB binding, the gRPC example, the reliability tests and the benchmarks share,
 * and nothing module-specific: {@link io.github.nettyucx.support.NettyTransport}, a Netty transport chosen by its
 * command-line name (nio, epoll, io_uring, ucx, ucx-tcp), with its event loop group, its channel classes and why
 * it cannot run here when it cannot. What only the benchmarks share (child JVMs, result statistics) is in
 * {@code io.github.nettyucx.benchmarks.core} (benchmarks/core).
 */
package io.github.nettyucx.support;
