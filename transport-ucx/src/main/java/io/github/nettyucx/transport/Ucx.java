/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxProcess;
import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.loop.UcxWorker;

/**
 * Tells whether the UCX transport can be used in this JVM, and why not.
 */
public final class Ucx {
    private Ucx() {
    }

    /** True when the native library and libucp loaded and a UCP context could be created. */
    public static boolean isAvailable() {
        return UcxWorker.unavailabilityCause() == null;
    }

    /** Throws an {@link UnsatisfiedLinkError} carrying {@link #unavailabilityCause()} when unavailable. */
    public static void ensureAvailability() {
        UcxIoHandler.ensureAvailability();
    }

    /** Why the transport is unavailable, or null when it is available. */
    public static Throwable unavailabilityCause() {
        return UcxWorker.unavailabilityCause();
    }

    /** The version of the libucp in use. */
    public static String ucxVersion() {
        ensureAvailability();
        return UcxProcess.ucxVersion();
    }

    /**
     * How many times, since this JVM started, a thread outside the UCX event loops woke a sleeping loop by
     * writing its eventfd. A loop that is awake (running tasks, or spinning for work) takes tasks and writes
     * from other threads without that system call; benchmarks divide this by their calls to show how often
     * an application thread's write paid for a wake-up.
     */
    public static long eventLoopWakeupWrites() {
        return UcxTransportMetrics.eventLoopWakeupWrites();
    }

    /**
     * How many times, since this JVM started, an event loop that waits adaptively (the default) found the host's
     * CPUs taken by other runnable threads and began a period of sleeping at once, as epoll's loop waits
     * (docs/settings.md#waiting).
     */
    public static long eventLoopContentionHolds() {
        return UcxTransportMetrics.eventLoopContentionHolds();
    }

    /**
     * UCX messages that no receive of a live connection wanted (sent without credit, repeated, aimed at a
     * connection that is gone or never was), dropped since the process started. Such a message never closes a
     * connection: UCX does not tell who sent it (docs/security.md).
     */
    public static long strayMessagesDropped() {
        return UcxTransportMetrics.strayMessagesDropped();
    }

    /**
     * Connections of this process whose peer's worker address reached UCX, since it started: each got a UCP
     * endpoint, a new one or the one its event loop's worker already had to the peer's worker. Only trusted peers'
     * addresses get that far (docs/security.md).
     */
    public static long endpointsCreated() {
        return UcxTransportMetrics.endpointsCreated();
    }

    /**
     * UCP endpoints of connections open now: one per pair of an event loop's worker and a peer worker, however
     * many connections between the two share it (docs/protocol.md).
     */
    public static long endpointsOpen() {
        return isAvailable() ? UcxProcess.endpointsOpen() : 0;
    }
}
