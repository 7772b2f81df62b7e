/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.integrations.bench;

import io.github.nettyucx.support.NettyTransport;

import java.util.Locale;

/**
 * The transports a framework benchmark compares: UCX through the framework's integration, and the framework's own
 * native default (epoll) or NIO.
 */
enum BenchTransport {
    UCX(NettyTransport.UCX),
    EPOLL(NettyTransport.EPOLL),
    NIO(NettyTransport.NIO),
    IO_URING(NettyTransport.IO_URING);

    private final NettyTransport netty;

    BenchTransport(NettyTransport netty) {
        this.netty = netty;
    }

    /** The Netty transport of this name, for frameworks built on Netty's own bootstraps. */
    NettyTransport netty() {
        return netty;
    }

    String id() {
        return netty.id();
    }

    /** Why a child JVM could not run this transport here, or null. */
    String unavailabilityReason() {
        return netty.unavailabilityReasonForChildJvm();
    }

    static BenchTransport of(String name) {
        for (BenchTransport t : values()) {
            if (t.id().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transport '" + name + "': use ucx, epoll, nio or io_uring");
    }
}
