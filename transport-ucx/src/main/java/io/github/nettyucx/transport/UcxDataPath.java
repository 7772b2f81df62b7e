/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.ChannelOutboundBuffer;

import java.io.IOException;

/**
 * How a connection's messages travel once both hellos are exchanged: UCX tagged messages
 * ({@link UcxTagDataPath}) or frames on the connection's own TCP socket ({@link UcxStreamDataPath}).
 * {@link UcxDataPathPolicy} chooses one per connection; the channel holds it and never asks which it
 * holds. Both move the messages of the same {@link UcxConnection} (its receive and send slots); they
 * differ in how the messages leave, in flow control, and in how the side-channel records travel.
 * Used on the event loop only.
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
