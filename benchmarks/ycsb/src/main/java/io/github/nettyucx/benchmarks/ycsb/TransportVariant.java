/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.support.NettyTransport;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A transport as the benchmark names it: a {@link NettyTransport} name ({@code ucx}, {@code epoll},
 * {@code io_uring}, {@code nio}, ...), or UCX with a given event loop wait strategy set in server and client JVMs
 * through {@code -Dio.github.nettyucx.waitStrategy}: {@code ucx-<strategy>} for any of {@code sleep},
 * {@code busy_poll}, {@code spin_then_sleep} and {@code adaptive}, and {@code ucx-spin}, short for
 * {@code ucx-spin_then_sleep}; {@code ucx-nohold} is UCX with {@code -Dio.github.nettyucx.sleepWhenContended=false},
 * {@code ucx-noyield} UCX with {@code -Dio.github.nettyucx.adaptiveYieldAtOnce=false}, {@code ucx-noslice} UCX whose
 * loops keep the kernel's time slice ({@code -Dio.github.nettyucx.loopSliceMicros=0}). Plain {@code ucx} runs with
 * the transport's default strategy.
 */
record TransportVariant(String id, NettyTransport transport, List<String> jvmOptions) {
    private static final List<String> WAIT_STRATEGIES = List.of("sleep", "busy_poll", "spin_then_sleep", "adaptive");
    /** The short name of {@code ucx-spin_then_sleep}. */
    private static final String SPIN = "ucx-spin";
    /**
     * UCX variants by name: loops that keep spinning beside busy threads, as before they learnt to notice them; and
     * loops that never yield at once, as on several CPUs before they watched the CPUs' demand; loops with the
     * kernel's time slice, as before they asked for a short one.
     */
    private static final Map<String, String> NAMED = Map.of(
            "ucx-nohold", "-Dio.github.nettyucx.sleepWhenContended=false",
            "ucx-noyield", "-Dio.github.nettyucx.adaptiveYieldAtOnce=false",
            "ucx-noslice", "-Dio.github.nettyucx.loopSliceMicros=0");

    static TransportVariant of(String id) {
        String name = id.trim().toLowerCase(Locale.ROOT);
        String strategy = name.equals(SPIN) ? "spin_then_sleep"
                : name.startsWith("ucx-") ? name.substring(4) : null;
        if (NAMED.containsKey(name)) {
            return new TransportVariant(name, NettyTransport.UCX, List.of(NAMED.get(name)));
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
                    + "beside busy threads, ucx-noyield for UCX that never yields at once, ucx-noslice for UCX whose "
                    + "loops keep the kernel's time slice", e);
        }
    }

    /** Whether this is UCX in some form, the transports the target is about. */
    boolean isUcx() {
        return transport == NettyTransport.UCX || transport == NettyTransport.UCX_TCP;
    }
}
