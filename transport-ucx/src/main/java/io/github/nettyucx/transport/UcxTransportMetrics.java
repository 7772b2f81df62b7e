/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.datapath.UcxTagDataPath;
import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.SetupFailure;
import io.github.nettyucx.handshake.UcxConnectionSetup;
import io.github.nettyucx.handshake.UcxConnector;
import io.github.nettyucx.handshake.UcxHandshakeLimits;
import io.github.nettyucx.jni.UcxProcess;
import io.github.nettyucx.loop.UcxIdlePolicy;
import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.loop.UcxWorker;

/**
 * The transport's counters since this JVM started, over every event loop and channel of the process: connections
 * set up (by data path) and those whose setup failed (by reason), how often the loops went to sleep and were woken,
 * how often writes had to wait for the peer, the UCX messages dropped as strays, the handshakes a server shed
 * and the connections downgraded to plain TCP. Each is counted where the transport does that work anyway (a system
 * call, a handshake, a write that stops), never per message, by the layer that does it (the handshake, the data
 * path, the loop), and read here by summing; the values only grow. {@code netty-ucx-micrometer} publishes them as
 * meters.
 */
public final class UcxTransportMetrics {
    private UcxTransportMetrics() {
    }

    /** Connections that became active over {@code path}: clients and accepted channels alike. */
    public static long connectionsOpened(DataPath path) {
        return UcxConnectionSetup.connectionsOpened(path);
    }

    /** Connections whose setup ended for {@code reason} without their becoming active. */
    public static long setupFailures(SetupFailure reason) {
        return UcxConnectionSetup.setupFailures(reason);
    }

    /**
     * How many times an event loop, having found no work, armed its UCP worker and waited in {@code epoll_wait}
     * (unless UCX had events already): each such sleep ends in a wake-up, by an event, a timer or another thread's
     * task.
     */
    public static long eventLoopSleeps() {
        return UcxIoHandler.processSleeps();
    }

    /** Writes of other threads that had to wake a sleeping loop: {@link Ucx#eventLoopWakeupWrites()}. */
    public static long eventLoopWakeupWrites() {
        return UcxIoHandler.processWakeupWrites();
    }

    /** Holds of the busy-neighbour check begun: {@link Ucx#eventLoopContentionHolds()}. */
    public static long eventLoopContentionHolds() {
        return UcxIdlePolicy.processCpusTakenPeriods();
    }

    /**
     * How many times a flush stopped because the peer had returned no credits (its receive window was full of our
     * messages it had not read yet). The writes left wait in the outbound buffer until credits come back.
     */
    public static long creditStalls() {
        return UcxTagDataPath.creditStalls();
    }

    /** How many times a flush stopped because all of the connection's send slots were still in flight. */
    public static long sendSlotStalls() {
        return UcxTagDataPath.sendSlotStalls();
    }

    /** {@link Ucx#strayMessagesDropped()}. */
    public static long strayMessagesDropped() {
        return UcxWorker.unavailabilityCause() == null ? UcxProcess.straysDropped() : 0;
    }

    /** {@link Ucx#endpointsCreated()}. */
    public static long endpointsCreated() {
        return UcxWorker.unavailabilityCause() == null ? UcxProcess.endpointsCreated() : 0;
    }

    /**
     * Pending handshakes a server closed to admit a newer connection, having as many pending as it allows
     * ({@link UcxChannelOption#MAX_PENDING_HANDSHAKES}): each is also counted as a {@link SetupFailure#REFUSED}.
     */
    public static long handshakesShed() {
        return UcxHandshakeLimits.handshakesShed();
    }

    /**
     * Client connects that went plain TCP ({@link UcxChannelOption#PLAIN_TCP_FALLBACK}) because the server did not
     * answer as a netty-ucx server: a downgrade, whether the server does not speak netty-ucx or something on the way
     * hid its answer. Later connects to a server so remembered are not counted again.
     */
    public static long plainTcpFallbacks() {
        return UcxConnector.plainTcpFallbacks();
    }

    /**
     * Accepted clients that sent nothing for {@link UcxChannelOption#CLIENT_BYTES_WAIT_MILLIS} and were served as
     * plain TCP (a netty-ucx client whose intro came later than that would be among them).
     */
    public static long silentClientsServedAsPlain() {
        return UcxConnector.silentClientsServedAsPlain();
    }

    /**
     * Bytes this process sent in UCX messages (the UCX data path: shared memory, RDMA or UCX's TCP; not plain TCP
     * peers and not the TCP data path), application bytes without the transport's headers. The event loops count
     * them without atomics; a total read while a loop shuts down may briefly miss that loop's share.
     */
    public static long ucxBytesSent() {
        return UcxWorker.bytesSentByAll();
    }

    /** Bytes of UCX messages this process received and handed to its channels, counted as {@link #ucxBytesSent()}. */
    public static long ucxBytesReceived() {
        return UcxWorker.bytesReceivedByAll();
    }
}
