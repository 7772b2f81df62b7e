/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.support.NettyTransport;

import java.util.List;
import java.util.Locale;

/**
 * The transports a framework benchmark compares: UCX through the framework's integration, and the framework's own
 * native default (epoll) or NIO.
 */
enum BenchTransport {
    UCX("ucx", NettyTransport.UCX),
    /** UCX with the loops' fixed spin ({@code SPIN_THEN_SLEEP}), to compare with the default one in the same run. */
    UCX_SPIN("ucx-spin", NettyTransport.UCX, "-Dio.github.nettyucx.waitStrategy=spin_then_sleep"),
    /** UCX with the default wait strategy yielding at once while the peer needs the loop's core. */
    UCX_YIELD("ucx-yield", NettyTransport.UCX, "-Dio.github.nettyucx.adaptiveYieldAtOnce=true"),
    /** UCX whose default wait strategy never yields at once, as on several CPUs before it watched the CPUs' demand. */
    UCX_NOYIELD("ucx-noyield", NettyTransport.UCX, "-Dio.github.nettyucx.adaptiveYieldAtOnce=false"),
    /** UCX whose loops keep spinning beside busy threads, as before they learnt to notice them. */
    UCX_NOHOLD("ucx-nohold", NettyTransport.UCX, "-Dio.github.nettyucx.sleepWhenContended=false"),
    /** UCX whose loops never spin: every wait sleeps in epoll, as beside busy threads once they hold. */
    UCX_SLEEP("ucx-sleep", NettyTransport.UCX, "-Dio.github.nettyucx.waitStrategy=sleep"),
    /** UCX whose loops keep the kernel's time slice, as before they asked for a short one. */
    UCX_NOSLICE("ucx-noslice", NettyTransport.UCX, "-Dio.github.nettyucx.loopSliceMicros=0"),
    EPOLL("epoll", NettyTransport.EPOLL),
    NIO("nio", NettyTransport.NIO),
    IO_URING("io_uring", NettyTransport.IO_URING);

    private final String id;
    private final NettyTransport netty;
    private final List<String> jvmOptions;

    BenchTransport(String id, NettyTransport netty, String... jvmOptions) {
        this.id = id;
        this.netty = netty;
        this.jvmOptions = List.of(jvmOptions);
    }

    /** Whether this is UCX (a framework then takes its UCX integration). */
    boolean isUcx() {
        return netty == NettyTransport.UCX;
    }

    /** JVM options the server and client JVMs need for this transport, whatever the framework. */
    List<String> jvmOptions() {
        return jvmOptions;
    }

    /** The Netty transport of this name, for frameworks built on Netty's own bootstraps. */
    NettyTransport netty() {
        return netty;
    }

    String id() {
        return id;
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
        throw new IllegalArgumentException("unknown transport '" + name
                + "': use ucx, ucx-spin, ucx-yield, ucx-nohold, ucx-sleep, epoll, nio or io_uring");
    }
}
