/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.benchmarks.core.UcxVariant;
import io.github.nettyucx.support.NettyTransport;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A transport as the benchmark names it: a {@link NettyTransport} name ({@code ucx}, {@code epoll},
 * {@code io_uring}, {@code nio}, ...), or UCX with other settings in server and client JVMs, a {@link UcxVariant}
 * ({@code ucx-spin}, {@code ucx-sleep}, {@code ucx-noslice}, ...). Plain {@code ucx} runs with the transport's
 * defaults.
 */
record TransportVariant(String id, NettyTransport transport, List<String> jvmOptions) {
    static TransportVariant of(String id) {
        String name = id.trim().toLowerCase(Locale.ROOT);
        Optional<UcxVariant> variant = UcxVariant.named(name);
        if (variant.isPresent()) {
            return new TransportVariant(name, NettyTransport.UCX, variant.get().jvmOptions());
        }
        try {
            return new TransportVariant(name, NettyTransport.of(name), List.of());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; or UCX with other settings: "
                    + UcxVariant.describeAll(), e);
        }
    }

    /** Whether this is UCX in some form, the transports the target is about. */
    boolean isUcx() {
        return transport == NettyTransport.UCX || transport == NettyTransport.UCX_TCP;
    }
}
