/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.FileRegion;

import java.io.IOException;

/**
 * The send loop both data paths share: one message per free slot, while flow control allows. Buffers and
 * {@link io.netty.channel.FileRegion}s alike go through {@link UcxConnection#sendNext}, in the order written.
 */
abstract class AbstractUcxDataPath implements UcxLink {
    final UcxConnection connection;
    private final UcxInput input;
    /** Bytes one message carries at most. */
    private final int sendCapacity;
    private final int inPlaceMinBytes;
    /** Calls {@link #write} again from the event loop soon: a FileRegion had no bytes to give. */
    private final Runnable retryWrite;

    AbstractUcxDataPath(UcxConnection connection, UcxInput input, int sendCapacity, int inPlaceMinBytes,
                        Runnable retryWrite) {
        this.connection = connection;
        this.input = input;
        this.sendCapacity = sendCapacity;
        this.inPlaceMinBytes = inPlaceMinBytes;
        this.retryWrite = retryWrite;
    }

    @Override
    public final UcxConnection connection() {
        return connection;
    }

    @Override
    public final UcxInput input() {
        return input;
    }

    @Override
    public final boolean write(ChannelOutboundBuffer in) throws Exception {
        while (!in.isEmpty()) {
            if (removeIfEmpty(in)) {
                continue;
            }
            if (!canSend() && !makeRoom()) {
                countStall();
                return false;
            }
            if (!connection.sendNext(in, sendCapacity, inPlaceMinBytes)) {
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
    public final boolean canSend() throws IOException {
        return connection.isConnected() && peerCredits() > 0 && connection.sendSlotFree();
    }

    /** Counts why the flush stops, when it stops for the peer or the slots (a closed connection is neither). */
    private void countStall() {
        if (!connection.isConnected()) {
            return;
        }
        if (peerCredits() <= 0) {
            UcxTransportMetrics.creditStall();
        } else {
            UcxTransportMetrics.sendSlotStall();
        }
    }

    /** Messages the peer can take now. */
    abstract int peerCredits();

    /** Tries to free the next send slot when none is free; true when it did. */
    boolean makeRoom() throws IOException {
        return false;
    }
}
