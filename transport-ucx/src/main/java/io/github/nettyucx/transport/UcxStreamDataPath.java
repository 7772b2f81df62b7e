/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.internal.SystemPropertyUtil;

import java.io.IOException;

/**
 * The TCP data path: messages travel as frames on the side channel's own TCP socket, which the native
 * connection takes over at the hello ({@code ucx_frame_path.c}: {@code frame_send} and
 * {@code write_queue} send, {@code read_frames} receives straight into the receive slots at each
 * progress of the worker). The side-channel records travel as frames between the messages. TCP's own
 * flow control stands in for credits: a frame whose slot the reader has not reposted waits in the
 * socket. Chosen for peers UCX could reach only over TCP ({@link UcxDataPathPolicy}).
 */
final class UcxStreamDataPath extends AbstractUcxDataPath implements UcxRecordLink {
    /**
     * Like {@link UcxTagDataPath#ZERO_COPY_MIN_BYTES}, on this path, where a buffer sent from its own
     * memory costs an entry of the sendmsg and a reference count, and saves copying it into the slot:
     * {@code -Dio.github.nettyucx.tcpDataPathZeroCopyBytes}. Why 128: docs/settings.md#tcp-data-path.
     */
    static final int ZERO_COPY_MIN_BYTES = Math.max(1,
            SystemPropertyUtil.getInt("io.github.nettyucx.tcpDataPathZeroCopyBytes", 128));

    private final UcxSideChannel side;
    private final long conn;

    private UcxStreamDataPath(UcxConnection connection, UcxInput input, int sendCapacity, UcxSideChannel side,
                              Runnable retryWrite) {
        super(connection, input, sendCapacity, ZERO_COPY_MIN_BYTES, retryWrite);
        this.side = side;
        this.conn = connection.nativeAddress();
    }

    /**
     * Hands the side channel's socket to the connection, with the bytes read after the peer's hello and
     * those of our hello not written yet; the worker watches the socket from now on, not the loop's epoll
     * set ({@code stopWatchingSocket}).
     */
    static UcxStreamDataPath connect(UcxHandshake.Hello peer, UcxConnection connection, UcxInput input,
                                     UcxSideChannel side, Runnable stopWatchingSocket, Runnable retryWrite)
            throws IOException {
        stopWatchingSocket.run();
        connection.connectStream(side);
        return new UcxStreamDataPath(connection, input, connection.sendCapacity(peer), side, retryWrite);
    }

    @Override
    int peerCredits() {
        return Integer.MAX_VALUE;
    }

    /**
     * Writes the messages a burst left for the worker's next progress, so that the channel runs out of
     * slots (and turns unwritable) only when the socket is full.
     */
    @Override
    boolean makeRoom() throws IOException {
        UcxNative.connStreamFlush(conn);
        connection.releaseCompletedSends();
        return canSend();
    }

    @Override
    public void returnCreditsIfDue() {
        connection.clearPendingCredits();
    }

    @Override
    public UcxRecordLink records() {
        return this;
    }

    @Override
    public boolean sendShutdownOutput(int messagesSent) throws IOException {
        send(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, messagesSent);
        return true;
    }

    @Override
    public void sendClose(int messagesSent, boolean reset) throws IOException {
        send(reset ? UcxHandshake.RECORD_RESET : UcxHandshake.RECORD_CLOSE, messagesSent);
    }

    /** Frames the record between the messages on the socket. */
    private void send(byte type, int messagesSent) throws IOException {
        int rc = UcxNative.connStreamRecord(conn, type, messagesSent);
        if (rc != 0) {
            throw new IOException("could not send the side-channel record: " + UcxNative.statusString(rc));
        }
    }

    @Override
    public boolean receiveRecords() throws IOException {
        return side.fillFromStream(conn);
    }

    /** Reads the socket now, as the loop does when it serves its sockets. */
    @Override
    public void pollNow() {
        UcxNative.connStreamRead(conn);
    }

    @Override
    public String endError() {
        return UcxNative.connStreamEndError(conn);
    }

    @Override
    public UcxTransportMetrics.DataPath kind() {
        return UcxTransportMetrics.DataPath.TCP_DATA_PATH;
    }

    @Override
    public String toString() {
        return "TCP data path";
    }
}
