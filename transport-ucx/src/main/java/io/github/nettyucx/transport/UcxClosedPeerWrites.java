/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;

/**
 * What becomes of a {@link UcxSocketChannel}'s write once its peer has closed, as Netty's socket transports see
 * it over TCP: taken and dropped while the peer's last messages are still to be read, failed as a reset otherwise.
 */
final class UcxClosedPeerWrites {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxClosedPeerWrites.class);

    private UcxClosedPeerWrites() {
    }

    /**
     * Returns true when the peer's close settled the writes of {@code in} (taken and dropped), throws when they
     * fail, and returns false when they are to be sent.
     */
    static boolean settle(UcxSocketChannel channel, ChannelOutboundBuffer in) throws IOException {
        UcxSession session = channel.session;
        if (session.peerClosedInOrder() && channel.readLoop.peerHasMessagesToBeRead()) {
            if (session.peerReset()) {
                throw new PeerResetBeforeReadException(channel.messagesReceived(), session.peerFinalSeq());
            }
            drop(channel, in);
            return true;
        }
        if (session.peerWillNotRead()) {
            throw new IOException("Connection reset by peer: the peer closed the connection");
        }
        return false;
    }

    /**
     * The peer closed in order and its last messages are still to be read. Over TCP the kernel takes such a
     * write (the peer answers it with a reset later) and those messages stay readable; failing it instead
     * makes HTTP/2 (gRPC's client) close the connection at once, and the answers it had not read yet were
     * lost. So the write is taken and dropped, as the peer would never read it, and the channel reads on to
     * the peer's end; writes after that fail as a reset.
     */
    private static void drop(UcxSocketChannel channel, ChannelOutboundBuffer in) {
        if (!in.isEmpty() && logger.isDebugEnabled()) {
            logger.debug("{} drops {} bytes written after the peer closed; {} of its {} messages are read", channel,
                    in.totalPendingWriteBytes(), Integer.toUnsignedString(channel.messagesReceived()),
                    Integer.toUnsignedString(channel.session.peerFinalSeq()));
        }
        while (in.remove()) {
            // Each write completes, as one the kernel took.
        }
        channel.writePending = false;
    }

    /**
     * A write to a peer that closed with a reset ({@code SO_LINGER} 0) while its last messages are still
     * unread. Deliberately not an {@link IOException}: Netty then shuts the output down (failing the writes)
     * instead of closing the channel, so those messages can still be read, as Netty's socket transports do
     * when a write meets a reset.
     */
    private static final class PeerResetBeforeReadException extends ChannelException {
        private static final long serialVersionUID = 1L;

        PeerResetBeforeReadException(int messagesReceived, int peerFinalSeq) {
            super("Connection reset by peer (it closed with SO_LINGER 0); the output is shut down so that its last "
                    + "messages can still be read (" + Integer.toUnsignedString(messagesReceived) + " of its "
                    + Integer.toUnsignedString(peerFinalSeq) + " messages arrived)");
        }
    }
}
