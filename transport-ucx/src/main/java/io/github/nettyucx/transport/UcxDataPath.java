/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.ChannelOutboundBuffer;

import java.io.IOException;

/**
 * How a connection's bytes travel once the peer is known: UCX tagged messages ({@link UcxTagDataPath}) or frames
 * on the connection's own TCP socket ({@link UcxStreamDataPath}), which {@link UcxDataPathPolicy} chooses between
 * at the hello, or plain TCP for a peer that does not speak netty-ucx ({@link UcxPlainDataPath}). The channel holds
 * one and never asks which it holds. The first two move the messages of a {@link UcxConnection} (its receive and
 * send slots) and differ in how the messages leave, in flow control, and in how the side-channel records travel;
 * plain TCP writes the flushed buffers to its socket as they are. Used on the event loop only.
 */
interface UcxDataPath {
    /**
     * Gathers the flushed buffers of {@code in} into messages and sends them, removing what was sent; a
     * {@link io.netty.channel.FileRegion}'s bytes are read into the messages as its turn comes. Returns true
     * when everything was sent, false when flow control or the send slots hold the rest back; the connection's
     * completions then tell the channel to try again ({@link #canSend()}).
     */
    boolean write(ChannelOutboundBuffer in) throws Exception;

    /** True when a message could be sent now; throws when an earlier send failed. */
    boolean canSend() throws IOException;

    /** Returns the credits owed to the peer when they are due (only where flow control uses credits). */
    void returnCreditsIfDue() throws IOException;

    /** What carries the side-channel records from now on. */
    UcxRecordLink records();

    /** Takes in what the peer has sent, when the loop has not done so lately (a handler blocked it). */
    void pollNow();

    /** The socket error that ended the peer's stream, when this data path saw one; null otherwise. */
    String endError();

    /**
     * True when the peer writes into this worker's shared-memory receive queue, which a peer dying in
     * the middle of a send can leave stuck (see {@link UcxSharedMemoryProbe}).
     */
    boolean peerSharesMemoryQueue();
}
