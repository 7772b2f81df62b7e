/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.internal.SystemPropertyUtil;

import java.io.IOException;

/**
 * Messages travel as UCX tagged messages through the connection's UCX endpoint (shared memory on one
 * host, InfiniBand/RoCE across hosts; C: {@code java_conn_send} in {@code ucx_conn.c}, then
 * {@code ucx_tag_path.c}), and the side-channel records on the side channel's socket. Flow control is by
 * credits: the peer may have as many messages in flight as it has receive slots, and each slot we consume
 * and repost is a credit, returned in the header of our next message or, once half a window has piled up,
 * in a control message.
 */
final class UcxTagDataPath extends AbstractUcxDataPath {
    /**
     * Readable bytes from which a buffer with a memory address is sent from its own memory (an entry of
     * the message's I/O vector, held until UCX is done with it) rather than copied into the send slot:
     * {@code -Dio.github.nettyucx.zeroCopySendBytes}; why 128: docs/settings.md#sends-from-the-buffers-own-memory.
     * Such sends wait for the endpoint's first flush, as UCX 1.13 can stall I/O-vector sends queued during
     * wire-up (openucx/ucx#6872).
     */
    static final int ZERO_COPY_MIN_BYTES = Math.max(1,
            SystemPropertyUtil.getInt("io.github.nettyucx.zeroCopySendBytes", 128));

    private final UcxSideChannel side;
    private final int peerWindow;
    private final int creditThreshold;
    private final boolean sameHost;

    private UcxTagDataPath(UcxHandshake.Hello peer, UcxConnection connection, UcxInput input, UcxSideChannel side,
                           Runnable retryWrite) {
        super(connection, input, connection.sendCapacity(peer), ZERO_COPY_MIN_BYTES, retryWrite);
        this.side = side;
        this.peerWindow = peer.recvWindow;
        this.creditThreshold = Math.max(1, connection.recvWindow() / 2);
        this.sameHost = peer.sameHost();
    }

    /** Creates the UCX endpoint to the peer's worker. */
    static UcxTagDataPath connect(UcxHandshake.Hello peer, UcxConnection connection, UcxInput input,
                                  UcxSideChannel side, Runnable retryWrite) throws IOException {
        connection.connectEndpoint(peer);
        return new UcxTagDataPath(peer, connection, input, side, retryWrite);
    }

    @Override
    int peerCredits() {
        return peerWindow + connection.creditsReceived() - connection.messagesSent();
    }

    /**
     * Returns credits in a control message once half a window has accumulated without a send to
     * carry them. While a previous control message is in flight this waits; its completion
     * notifies the channel, which calls this again.
     */
    @Override
    public void returnCreditsIfDue() throws IOException {
        int pending = connection.pendingCredits();
        if (pending < creditThreshold || !connection.isConnected()) {
            return;
        }
        int rc = UcxNative.connSendCredits(connection.nativeAddress(), pending);
        if (rc < 0) {
            throw new IOException("UCX credit message failed: " + UcxNative.statusString(rc));
        }
        if (rc != UcxNative.CREDITS_BUSY) {
            connection.clearPendingCredits();
        }
    }

    @Override
    public UcxRecordLink records() {
        return side;
    }

    @Override
    public UcxTransportMetrics.DataPath kind() {
        return UcxTransportMetrics.DataPath.UCX;
    }

    @Override
    public boolean peerSharesMemoryQueue() {
        return sameHost;
    }

    @Override
    public String toString() {
        return "UCX endpoint";
    }
}
