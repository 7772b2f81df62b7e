/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ThreadAwareExecutor;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Keeps a UCX event loop from being suspended while its UCP worker still has work that no channel stands
 * for: connections whose channels are closed but which still flush their last messages and wait for their
 * peers' ends (ucx_linger.c), or a shared-memory probe in flight ({@link UcxSharedMemoryProbe}).
 *
 * <p>An auto-scaling group suspends an idle loop (its thread ends until a task arrives) once the loop has no
 * registrations, no tasks and no scheduled tasks, and nothing progresses the worker of a suspended loop: the
 * peer of a connection closed just before would wait for the rest of its bytes until the loop happened to
 * resume. Netty gives an {@code IoHandler} no say in that decision, but a scheduled task is enough to keep the
 * loop running; so while such work remains one task stays scheduled, and looks again when it runs. Used on the
 * event loop only.
 */
final class UcxSuspensionGuard implements Runnable {
    /**
     * How often a loop kept running looks again whether its worker is done. Closing connections are reaped
     * by the worker's own progress, so this only bounds how long the loop stays up after the last one.
     */
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Null for an executor that cannot schedule: such an executor is no Netty event loop and never suspends. */
    private final EventExecutor loop;
    private final BooleanSupplier workLeft;
    private boolean scheduled;

    UcxSuspensionGuard(ThreadAwareExecutor executor, BooleanSupplier workLeft) {
        loop = executor instanceof EventExecutor ? (EventExecutor) executor : null;
        this.workLeft = workLeft;
    }

    /**
     * Schedules the check when the worker has work left and none is scheduled. Called where the loop may
     * lose its last registration, before Netty counts it gone, and by the scheduled check itself.
     */
    void check() {
        if (scheduled || loop == null || loop.isShuttingDown() || !workLeft.getAsBoolean()) {
            return;
        }
        scheduled = true;
        loop.schedule(this, RECHECK_NANOS, TimeUnit.NANOSECONDS);
    }

    @Override
    public void run() {
        scheduled = false;
        check();
    }

    /** Whether the check is scheduled, that is whether the guard keeps the loop running; for tests. */
    boolean isScheduled() {
        return scheduled;
    }
}
