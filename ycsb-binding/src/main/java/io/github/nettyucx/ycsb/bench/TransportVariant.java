/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb.bench;

import io.github.nettyucx.support.NettyTransport;

import java.util.List;
import java.util.Locale;

/**
 * A transport as the benchmark names it: a {@link NettyTransport} name ({@code ucx}, {@code epoll},
 * {@code io_uring}, {@code nio}, ...), or UCX with a given event loop wait strategy, {@code ucx-sleep},
 * {@code ucx-busy_poll}, {@code ucx-spin_then_sleep} (set in server and client JVMs through
 * {@code -Dio.github.nettyucx.waitStrategy}).
 */
record TransportVariant(String id, NettyTransport transport, List<String> jvmOptions) {
    private static final List<String> WAIT_STRATEGIES = List.of("sleep", "busy_poll", "spin_then_sleep");

    static TransportVariant of(String id) {
        String name = id.trim().toLowerCase(Locale.ROOT);
        if (name.startsWith("ucx-") && WAIT_STRATEGIES.contains(name.substring(4))) {
            return new TransportVariant(name, NettyTransport.UCX,
                    List.of("-Dio.github.nettyucx.waitStrategy=" + name.substring(4)));
        }
        try {
            return new TransportVariant(name, NettyTransport.of(name), List.of());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; or UCX with a wait strategy: ucx-sleep, "
                    + "ucx-busy_poll or ucx-spin_then_sleep", e);
        }
    }
}
