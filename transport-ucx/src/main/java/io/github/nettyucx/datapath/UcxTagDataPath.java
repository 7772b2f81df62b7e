/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.UcxHandshake;
import io.github.nettyucx.handshake.UcxRecordLink;
import io.github.nettyucx.handshake.UcxSideChannel;
import io.github.nettyucx.jni.UcxNative;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.FileRegion;
import io.netty.util.internal.SystemPropertyUtil;

import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Messages travel as UCX tagged messages through the connection's UCX endpoint (shared memory on one
 * host, InfiniBand/RoCE across hosts; C: {@code java_conn_send} in {@code ucx_conn.c}, then
 * {@code ucx_tag_path.c}), and the side-channel records on the side channel's socket. Flow control is by
 * credits: the peer may have as many messages in flight as it has receive slots, and each slot we consume
 * and repost is a credit, returned in the header of our next message or, once half a window has piled up,
 * in a control message. The send loop: one message per free slot, while flow control allows; buffers and
 * {@link FileRegion}s alike go through {@link UcxConnection#sendNext}, in the order written.
 */
public final class UcxTagDataPath implements UcxLink {
    /** The process's flushes that stopped for want of credits, and for want of a free send slot. */
    private static final LongAdder CREDIT_STALLS = new LongAdder();
    private static final LongAdder SEND_SLOT_STALLS = new LongAdder();
    /**
     * Readable bytes from which a buffer with a memory address is sent from its own memory (an entry of
     * the message's I/O vector, held until UCX is done with it) rather than copied into the send slot:
     * {@code -Dio.github.nettyucx.zeroCopySendBytes}; why 128: docs/settings.md#sends-from-the-buffers-own-memory.
     * Such sends wait for the endpoint's first flush, as UCX 1.13 can stall I/O-vector sends queued during
     * wire-up (openucx/ucx#6872).
     */
    static final int ZERO_COPY_MIN_BYTES = Math.max(1,
            SystemPropertyUtil.getInt("io.github.nettyucx.zeroCopySendBytes", 128));

    private final UcxConnection connection;
    private final UcxInput input;
    /** Bytes one message carries at most. */
    private final int sendCapacity;
    /** Calls {@link #write} again from the event loop soon: a FileRegion had no bytes to give. */
    private final Runnable retryWrite;
    private final UcxSideChannel side;
    private final int peerWindow;
    private final int creditThreshold;
    private final boolean sameHost;

    private UcxTagDataPath(UcxHandshake.Hello peer, UcxConnection connection, UcxInput input, UcxSideChannel side,
                           Runnable retryWrite) {
        this.connection = connection;
        this.input = input;
        this.sendCapacity = connection.sendCapacity(peer.recvUnit);
        this.retryWrite = retryWrite;
        this.side = side;
        this.peerWindow = peer.recvWindow;
        this.creditThreshold = Math.max(1, connection.recvWindow() / 2);
        this.sameHost = peer.sameHost();
    }

    /** Creates the UCX endpoint to the peer's worker. */
    public static UcxTagDataPath connect(UcxHandshake.Hello peer, UcxConnection connection, UcxInput input,
                                  UcxSideChannel side, Runnable retryWrite) throws IOException {
        connection.connectEndpoint(peer.workerAddress, peer.ownerKey, peer.connectionId, peer.tagSecret,
                peer.messageKey, peer.peerErrorHandling());
        return new UcxTagDataPath(peer, connection, input, side, retryWrite);
    }

    @Override
    public UcxConnection connection() {
        return connection;
    }

    @Override
    public UcxInput input() {
        return input;
    }

    @Override
    public boolean write(ChannelOutboundBuffer in) throws Exception {
        while (!in.isEmpty()) {
            if (removeIfEmpty(in)) {
                continue;
            }
            if (!canSend()) {
                countStall();
                return false;
            }
            if (!connection.sendNext(in, sendCapacity, ZERO_COPY_MIN_BYTES)) {
                // A FileRegion gave no bytes now (a DefaultFileRegion never does: at the end of its file it
                // throws). Like a socket that takes nothing, try again later, without holding the loop.
                retryWrite.run();
                return false;
            }
        }
        return true;
    }

    /**
     * An empty buffer, or a region with no bytes, needs no message: it completes at once, as a socket write of
     * nothing does, also while the peer holds every credit. Otherwise a last empty write (an HTTP response's
     * empty last content) waits for credits from a peer that has read all it wanted, and fails when it closes.
     */
    private static boolean removeIfEmpty(ChannelOutboundBuffer in) {
        Object msg = in.current();
        boolean empty = msg instanceof ByteBuf ? !((ByteBuf) msg).isReadable()
                : ((FileRegion) msg).transferred() >= ((FileRegion) msg).count();
        return empty && in.remove();
    }

    @Override
    public boolean canSend() throws IOException {
        return connection.isConnected() && peerCredits() > 0 && connection.sendSlotFree();
    }

    /** Counts why the flush stops, when it stops for the peer or the slots (a closed connection is neither). */
    private void countStall() {
        if (!connection.isConnected()) {
            return;
        }
        if (peerCredits() <= 0) {
            CREDIT_STALLS.increment();
            connection.creditStalled();
        } else {
            SEND_SLOT_STALLS.increment();
        }
    }

    /** Messages the peer can take now. */
    private int peerCredits() {
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
        if (connection.sendCredits(pending) != UcxNative.CREDITS_BUSY) {
            connection.clearPendingCredits();
        }
    }

    @Override
    public UcxRecordLink records() {
        return side;
    }

    @Override
    public DataPath kind() {
        return DataPath.UCX;
    }

    @Override
    public boolean peerSharesMemoryQueue() {
        return sameHost;
    }

    @Override
    public String toString() {
        return "UCX endpoint";
    }

    /** Flushes of the process that stopped because the peer had returned no credits. */
    public static long creditStalls() {
        return CREDIT_STALLS.sum();
    }

    /** Flushes of the process that stopped because every send slot of the connection was in flight. */
    public static long sendSlotStalls() {
        return SEND_SLOT_STALLS.sum();
    }
}
