/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import jdk.jfr.FlightRecorder;

import java.net.SocketAddress;
import java.util.concurrent.atomic.LongAdder;

/**
 * One channel's connection setup, from connect or accept until the channel is active or closed: what
 * {@code UcxTransportMetrics} counts of it and the {@link UcxConnectionSetupEvent} it records. Each setup is counted
 * once, as opened or as failed, with the first reason noted for a failure. Used on the channel's event loop only.
 *
 * <p>The event is held as an {@code Object} and only touched where the JVM has {@code jdk.jfr}, so that the
 * channels load and run in runtimes without that module, and only once the flight recorder runs: loading an event
 * class has the JVM set up the recorder's instrumentation (about 100 ms and 300 classes in a fresh JVM, on the loop
 * that sets up the first connection), for a process that may never record.
 */
public final class UcxConnectionSetup {
    private static final boolean JFR = jfrPresent();
    /** The process's setups that ended, by data path when opened and by reason when failed. */
    private static final LongAdder[] OPENED = adders(DataPath.values().length);
    private static final LongAdder[] FAILED = adders(SetupFailure.values().length);

    private boolean pending;
    /** A {@link UcxConnectionSetupEvent} whose duration runs, or null (no JFR, or no recording wanted it). */
    private Object event;
    private SetupFailure failure;
    private String failureMessage;

    /** The setup starts now: a client's connect, or a server's accept. */
    void start() {
        pending = true;
        failure = null;
        failureMessage = null;
        event = JFR && FlightRecorder.isInitialized() ? UcxConnectionSetupEvent.started() : null;
    }

    /** True between {@link #start()} and the setup's end. */
    boolean isPending() {
        return pending;
    }

    /** Notes why the setup is failing, unless a reason was noted already (the first says most). */
    void failing(SetupFailure reason, String message) {
        if (pending && failure == null) {
            failure = reason;
            failureMessage = message;
        }
    }

    /** The setup goes on another way (a client that falls back to plain TCP): what failed before does not count. */
    void startingOver() {
        failure = null;
        failureMessage = null;
    }

    /** The channel became active over {@code path}. */
    void opened(DataPath path, boolean accepted, SocketAddress local, SocketAddress remote, String trust) {
        if (!pending) {
            return;
        }
        pending = false;
        OPENED[path.ordinal()].increment();
        finishEvent(path.label(), null, null, accepted, local, remote, trust);
    }

    /** The channel closed before it became active: the reason noted, or {@code otherwise}. */
    void failed(SetupFailure otherwise, boolean accepted, SocketAddress local, SocketAddress remote, String trust) {
        if (!pending) {
            return;
        }
        pending = false;
        SetupFailure reason = failure != null ? failure : otherwise;
        FAILED[reason.ordinal()].increment();
        finishEvent(null, reason.name(), failureMessage, accepted, local, remote, trust);
    }

    private void finishEvent(String dataPath, String reason, String message, boolean accepted, SocketAddress local,
                             SocketAddress remote, String trust) {
        Object running = event;
        event = null;
        if (running != null) {
            ((UcxConnectionSetupEvent) running).finish(dataPath, reason, message, accepted,
                    local == null ? null : local.toString(), remote == null ? null : remote.toString(), trust);
        }
    }

    private static boolean jfrPresent() {
        try {
            Class.forName("jdk.jfr.Event", false, UcxConnectionSetup.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The process's connections opened over {@code path} since it started. */
    public static long connectionsOpened(DataPath path) {
        return OPENED[path.ordinal()].sum();
    }

    /** The process's setups failed for {@code reason} since it started. */
    public static long setupFailures(SetupFailure reason) {
        return FAILED[reason.ordinal()].sum();
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }
}
