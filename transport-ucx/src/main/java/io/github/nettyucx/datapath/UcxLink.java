/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.UcxDataPathPolicy;
import io.github.nettyucx.handshake.UcxRecordLink;
import io.github.nettyucx.loop.UcxSharedMemoryProbe;
import io.netty.channel.ChannelOutboundBuffer;

import java.io.IOException;

/**
 * What carries a connection's bytes in its current phase; a channel holds exactly one, and replaces it when the
 * phase changes:
 * <pre>
 *  UcxHandshakeLink --hellos chose UCX--&gt; UcxTagDataPath      (UCX tagged messages)
 *                   --hellos chose TCP--&gt; UcxPlainDataPath    (the TCP data path: the socket as plain TCP)
 *                   --not a netty-ucx peer--&gt; UcxPlainDataPath (plain TCP)
 * </pre>
 * {@link UcxDataPathPolicy} chooses between the first two at the hello. The tag path moves the messages of a
 * {@link UcxConnection} (its receive and send slots) with credits for flow control and the records on the side
 * channel; plain TCP writes the flushed buffers to its socket as they are; the handshake holds writes back. Used on
 * the event loop only.
 */
public interface UcxLink {
    /**
     * Gathers the flushed buffers of {@code in} into messages and sends them, removing what was sent; a
     * {@link io.netty.channel.FileRegion}'s bytes are read into the messages as its turn comes. Returns true
     * when everything was sent, false when flow control, the send slots or the handshake hold the rest back; the
     * connection's completions then tell the channel to try again ({@link #canSend()}).
     */
    boolean write(ChannelOutboundBuffer in) throws Exception;

    /** True when a message could be sent now; throws when an earlier send failed. */
    boolean canSend() throws IOException;

    /** What the read loop reads: the connection's messages, or the plain socket's bytes. */
    UcxInput input();

    /** What carries the records (output shut down, closed) in this phase. */
    UcxRecordLink records();

    /** The native connection whose messages this link moves; null where there is none (yet). */
    UcxConnection connection();

    /** How the bytes travel, once the data path is up; null while handshaking. */
    DataPath kind();

    /** The UCX lanes and transports in use, as {@code UcxSocketChannel.ucxLanes()} reports them. */
    default String lanes() {
        UcxConnection connection = connection();
        return connection == null ? "no UCX endpoint yet" : connection.describe();
    }

    /** Returns the credits owed to the peer when they are due (only where flow control uses credits). */
    default void returnCreditsIfDue() throws IOException {
    }

    /**
     * True when the peer writes into this worker's shared-memory receive queue, which a peer dying in
     * the middle of a send can leave stuck (see {@link UcxSharedMemoryProbe}).
     */
    default boolean peerSharesMemoryQueue() {
        return false;
    }
}
