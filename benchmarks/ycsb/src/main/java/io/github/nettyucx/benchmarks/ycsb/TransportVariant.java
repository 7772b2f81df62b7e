/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.support.NettyTransport;

import java.util.List;
import java.util.Locale;

/**
 * A transport as the benchmark names it: a {@link NettyTransport} name ({@code ucx}, {@code epoll},
 * {@code io_uring}, {@code nio}, ...), or UCX with a given event loop wait strategy set in server and client JVMs
 * through {@code -Dio.github.nettyucx.waitStrategy}: {@code ucx-<strategy>} for any of {@code sleep},
 * {@code busy_poll}, {@code spin_then_sleep} and {@code adaptive}, and {@code ucx-spin}, short for
 * {@code ucx-spin_then_sleep}; {@code ucx-nohold} is UCX with {@code -Dio.github.nettyucx.sleepWhenContended=false}.
 * Plain {@code ucx} runs with the transport's default strategy.
 */
record TransportVariant(String id, NettyTransport transport, List<String> jvmOptions) {
    private static final List<String> WAIT_STRATEGIES = List.of("sleep", "busy_poll", "spin_then_sleep", "adaptive");
    /** The short name of {@code ucx-spin_then_sleep}. */
    private static final String SPIN = "ucx-spin";
    /** UCX whose loops keep spinning beside busy threads, as before they learnt to notice them. */
    private static final String NO_HOLD = "ucx-nohold";

    static TransportVariant of(String id) {
        String name = id.trim().toLowerCase(Locale.ROOT);
        String strategy = name.equals(SPIN) ? "spin_then_sleep"
                : name.startsWith("ucx-") ? name.substring(4) : null;
        if (name.equals(NO_HOLD)) {
            return new TransportVariant(name, NettyTransport.UCX,
                    List.of("-Dio.github.nettyucx.sleepWhenContended=false"));
        }
        if (strategy != null && WAIT_STRATEGIES.contains(strategy)) {
            return new TransportVariant(name, NettyTransport.UCX,
                    List.of("-Dio.github.nettyucx.waitStrategy=" + strategy));
        }
        try {
            return new TransportVariant(name, NettyTransport.of(name), List.of());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; or UCX with a wait strategy: ucx-spin, ucx-sleep, "
                    + "ucx-busy_poll, ucx-spin_then_sleep or ucx-adaptive; ucx-nohold for UCX that keeps spinning "
                    + "beside busy threads", e);
        }
    }

    /** Whether this is UCX in some form, the transports the target is about. */
    boolean isUcx() {
        return transport == NettyTransport.UCX || transport == NettyTransport.UCX_TCP;
    }
}
