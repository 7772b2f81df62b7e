/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxIdlePolicy;
import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.loop.UcxWorker;
import io.github.nettyucx.jni.UcxProcess;

import java.util.concurrent.atomic.LongAdder;

/**
 * The transport's counters since this JVM started, over every event loop and channel of the process: connections
 * set up (by data path) and those whose setup failed (by reason), how often the loops went to sleep and were woken,
 * how often writes had to wait for the peer, the UCX messages dropped as strays, the handshakes a server shed
 * and the connections downgraded to plain TCP. Each is counted where the
 * transport does that work anyway (a system call, a handshake, a write that stops), never per message, and read
 * by summing; the values only grow. {@code netty-ucx-micrometer} publishes them as meters.
 */
public final class UcxTransportMetrics {
    private static final LongAdder[] OPENED = adders(DataPath.values().length);
    private static final LongAdder[] FAILED = adders(SetupFailure.values().length);
    private static final LongAdder CREDIT_STALLS = new LongAdder();
    private static final LongAdder SEND_SLOT_STALLS = new LongAdder();
    private static final LongAdder HANDSHAKES_SHED = new LongAdder();
    private static final LongAdder PLAIN_TCP_FALLBACKS = new LongAdder();
    private static final LongAdder SILENT_CLIENTS_PLAIN = new LongAdder();

    private UcxTransportMetrics() {
    }

    /** How a connection's bytes travel, as chosen when its handshake ended. */
    public enum DataPath {
        /** UCX tagged messages: shared memory on one host, InfiniBand/RoCE (or UCX's tcp) between hosts. */
        UCX("UCX"),
        /** The connection's socket as plain TCP after the hellos: a peer UCX reaches only over TCP, or untrusted. */
        TCP_DATA_PATH("TCP data path"),
        /** Plain TCP: the peer does not speak netty-ucx. */
        PLAIN_TCP("plain TCP");

        private final String label;

        DataPath(String label) {
            this.label = label;
        }

        /** The name this data path has in the documentation and in {@link UcxSocketChannel#ucxLanes()}. */
        public String label() {
            return label;
        }
    }

    /** Why a connection closed before it became active. */
    public enum SetupFailure {
        /** The peers did not trust each other with UCX and the TCP data path was off on one side. */
        UNTRUSTED,
        /**
         * The peers trusted each other, but their UCX contexts share no transport that reaches across, and the TCP
         * data path was off on one side.
         */
        NO_TRANSPORT,
        /** The peer sent what the netty-ucx handshake does not allow: it speaks another protocol, or violates ours. */
        PROTOCOL,
        /** The connect timeout, an accepted peer's time for its hello, or a UCX endpoint that never came up. */
        TIMEOUT,
        /** A server shed the pending handshake to admit a newer connection: it had as many pending as it allows. */
        REFUSED,
        /** The TCP connect failed, or the peer or the network failed during the handshake. */
        IO,
        /** Closed by this side (a cancelled connect, the channel closed, the loop shut down) before it was up. */
        CLOSED
    }

    /** Connections that became active over {@code path}: clients and accepted channels alike. */
    public static long connectionsOpened(DataPath path) {
        return OPENED[path.ordinal()].sum();
    }

    /** Connections whose setup ended for {@code reason} without their becoming active. */
    public static long setupFailures(SetupFailure reason) {
        return FAILED[reason.ordinal()].sum();
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
        return CREDIT_STALLS.sum();
    }

    /** How many times a flush stopped because all of the connection's send slots were still in flight. */
    public static long sendSlotStalls() {
        return SEND_SLOT_STALLS.sum();
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
        return HANDSHAKES_SHED.sum();
    }

    /**
     * Client connects that went plain TCP ({@link UcxChannelOption#PLAIN_TCP_FALLBACK}) because the server did not
     * answer as a netty-ucx server: a downgrade, whether the server does not speak netty-ucx or something on the way
     * hid its answer. Later connects to a server so remembered are not counted again.
     */
    public static long plainTcpFallbacks() {
        return PLAIN_TCP_FALLBACKS.sum();
    }

    /**
     * Accepted clients that sent nothing for {@link UcxChannelOption#CLIENT_BYTES_WAIT_MILLIS} and were served as
     * plain TCP (a netty-ucx client whose intro came later than that would be among them).
     */
    public static long silentClientsServedAsPlain() {
        return SILENT_CLIENTS_PLAIN.sum();
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

    static void handshakeShed() {
        HANDSHAKES_SHED.increment();
    }

    static void plainTcpFallback() {
        PLAIN_TCP_FALLBACKS.increment();
    }

    static void silentClientServedAsPlain() {
        SILENT_CLIENTS_PLAIN.increment();
    }

    static void connectionOpened(DataPath path) {
        OPENED[path.ordinal()].increment();
    }

    static void setupFailed(SetupFailure reason) {
        FAILED[reason.ordinal()].increment();
    }

    static void creditStall() {
        CREDIT_STALLS.increment();
    }

    static void sendSlotStall() {
        SEND_SLOT_STALLS.increment();
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }
}
