/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.benchmarks.core.UcxVariant;
import io.github.nettyucx.support.NettyTransport;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The transports a framework benchmark compares: UCX through the framework's integration, with its defaults or as
 * a {@link UcxVariant} ({@code ucx-noslice}, ...), and the framework's own native default (epoll), NIO or io_uring.
 *
 * @param id         the name on the command line and in the results
 * @param netty      the Netty transport underneath
 * @param jvmOptions the options the server and client JVMs need for it, whatever the framework
 */
record BenchTransport(String id, NettyTransport netty, List<String> jvmOptions) {
    /** The transports without options, by name. */
    private static final List<NettyTransport> PLAIN = List.of(NettyTransport.UCX, NettyTransport.EPOLL,
            NettyTransport.NIO, NettyTransport.IO_URING);

    static BenchTransport of(String name) {
        String id = name.trim().toLowerCase(Locale.ROOT);
        Optional<UcxVariant> variant = UcxVariant.named(id);
        if (variant.isPresent()) {
            return new BenchTransport(id, NettyTransport.UCX, variant.get().jvmOptions());
        }
        for (NettyTransport t : PLAIN) {
            if (t.id().equals(id)) {
                return new BenchTransport(id, t, List.of());
            }
        }
        throw new IllegalArgumentException("unknown transport '" + name + "': use ucx, epoll, nio or io_uring, or UCX "
                + "with other settings: " + UcxVariant.describeAll());
    }

    /** Whether this is UCX (a framework then takes its UCX integration). */
    boolean isUcx() {
        return netty == NettyTransport.UCX;
    }

    /** Why a child JVM could not run this transport here, or null. */
    String unavailabilityReason() {
        return netty.unavailabilityReasonForChildJvm();
    }
}
