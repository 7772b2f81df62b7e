/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Works around a UCX 1.13 limitation (docs/reliability.md, bug 12): a same-host peer that dies in the
 * middle of writing into an event loop's shared-memory receive queue leaves the queue stuck, and no
 * same-host peer is heard from again. After such a peer vanished ({@link #sameHostPeerVanished()}), the
 * probe sends one message through the queue from a second UCP worker of the process
 * ({@code ucx_probe.c}); when it has not arrived within the timeout, it has the loop's worker replaced:
 * every connection of the loop fails and closes, and new connections use a new UCP worker. Used on the
 * event loop only.
 */
public final class UcxSharedMemoryProbe {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxSharedMemoryProbe.class);
    private static final long NO_PROBE = Long.MIN_VALUE;
    /**
     * How long the probe may take before the queue counts as stuck:
     * {@code -Dio.github.nettyucx.sharedMemoryProbeMillis}, default 1000; 0 turns the probe (and so the
     * replacement of a stuck worker) off. It arrives within microseconds on a working queue; a same-host
     * peer that is merely descheduled (or stopped) in the middle of a send holds the queue just as long,
     * so a short timeout would close the loop's connections for a pause.
     */
    private static final long TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(
            Math.max(0, SystemPropertyUtil.getLong("io.github.nettyucx.sharedMemoryProbeMillis", 1000)));
    /** While a probe is in flight, a sleeping loop wakes this often to judge it. */
    static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** What the probe needs of its event loop. */
    interface Loop {
        UcxWorker worker();

        /** Makes the worker progress and dispatches completions, as one round of the loop does. */
        void processCompletions();

        /**
         * Fails every connection of the loop with {@code cause} and gives the loop a new UCP worker.
         * Returns how many connections were closed.
         */
        int replaceWorker(IOException cause) throws IOException;
    }

    private final Loop loop;
    /** When the probe in flight was sent, or {@link #NO_PROBE}. */
    private long sentNanos = NO_PROBE;
    private long arrived;
    private long workersReplaced;

    UcxSharedMemoryProbe(Loop loop) {
        this.loop = loop;
    }

    /** True while a probe is in flight: the loop must not sleep longer than {@link #CHECK_NANOS}. */
    boolean inFlight() {
        return sentNanos != NO_PROBE;
    }

    /**
     * A same-host peer vanished without closing (killed, crashed): it may have died in the middle of
     * writing into the worker's shared-memory receive queue. Sends a probe through the queue, unless one
     * is in flight already.
     */
    public void sameHostPeerVanished() {
        if (inFlight() || TIMEOUT_NANOS == 0) {
            return;
        }
        try {
            loop.worker().probeStart();
            sentNanos = System.nanoTime();
        } catch (IOException e) {
            logger.warn("Could not check UCX's shared-memory receive queue after a same-host peer vanished: {}",
                    e.getMessage());
        }
    }

    /** Called by each run of the loop while a probe is in flight: replaces the worker once the probe is late. */
    void check() {
        if (!inFlight() || hasArrived()) {
            return;
        }
        if (System.nanoTime() - sentNanos < TIMEOUT_NANOS) {
            return;
        }
        // A loop that could not run for a while (the machine was busy) looks once more first.
        loop.processCompletions();
        if (hasArrived()) {
            return;
        }
        replaceWorker();
        sentNanos = NO_PROBE;
    }

    private boolean hasArrived() {
        UcxWorker worker = loop.worker();
        if (!worker.probeArrived()) {
            return false;
        }
        worker.probeFree();
        sentNanos = NO_PROBE;
        arrived++;
        return true;
    }

    /**
     * Closes every connection of the loop (their peers see a reset) and gives the loop a new UCP worker:
     * with its receive queue stuck, none of them would receive from a same-host peer again, and neither
     * would a new one. Server channels and their sockets stay.
     */
    public void replaceWorker() {
        IOException cause = new IOException("UCX's shared-memory receive queue of this event loop stopped "
                + "delivering after a same-host peer died in the middle of a send (UCX 1.13 limitation, "
                + "docs/reliability.md bug 12): the loop's connections are closed and new ones use a new UCP worker");
        try {
            int closed = loop.replaceWorker(cause);
            workersReplaced++;
            logger.warn("UCX's shared-memory receive queue of an event loop stopped after a same-host peer died "
                    + "in the middle of a send (the probe did not arrive in {} ms): closed its {} connection(s) "
                    + "and replaced its UCP worker", TimeUnit.NANOSECONDS.toMillis(TIMEOUT_NANOS), closed);
        } catch (IOException e) {
            logger.error("The event loop's shared-memory receive queue is stuck and a new UCP worker could not be "
                    + "created; same-host connections of this loop will not receive", e);
        }
    }

    /** Probes that arrived: the queue worked after a same-host peer vanished. */
    public long probesArrived() {
        return arrived;
    }

    public long workersReplaced() {
        return workersReplaced;
    }
}
