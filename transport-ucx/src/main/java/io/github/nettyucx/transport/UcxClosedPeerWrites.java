/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.FileRegion;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;

/**
 * What becomes of a {@link UcxSocketChannel}'s write once its peer has closed, as Netty's socket transports see
 * it over TCP: taken and dropped while the peer's last messages are still to be read, up to the channel's write
 * buffer high water mark (as TCP's kernel takes writes up to its send buffer), held back beyond that until those
 * messages are read; failed as a reset otherwise.
 */
final class UcxClosedPeerWrites {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxClosedPeerWrites.class);

    private UcxClosedPeerWrites() {
    }

    /**
     * Returns true when the peer's close settled the writes of {@code in} (taken and dropped, or held), throws when
     * they fail, and returns false when they are to be sent.
     */
    static boolean settle(UcxSocketChannel channel, ChannelOutboundBuffer in) throws IOException {
        UcxSession session = channel.session;
        if (lastMessagesToBeRead(channel)) {
            if (session.peerReset()) {
                throw new PeerResetBeforeReadException(channel.messagesReceived(), session.peerFinalSeq());
            }
            drop(channel, in);
            // What was not dropped waits, the channel unwritable once it is a buffer's worth, until those
            // messages are read (failHeldWrites), or the channel closes.
            channel.writePending = !in.isEmpty();
            return true;
        }
        if (session.peerWillNotRead()) {
            throw new IOException("Connection reset by peer: the peer closed the connection");
        }
        return false;
    }

    /**
     * Fails, as a reset, the writes {@link #settle} held back while the closed peer's last messages were to be
     * read, once none are left to read (or the channel stopped reading). The read loop calls it after each round.
     */
    static void failHeldWrites(UcxSocketChannel channel) {
        if (channel.writePending && channel.session.peerClosedInOrder() && !lastMessagesToBeRead(channel)) {
            channel.unsafe().flushToClosedPeer();
        }
    }

    /** The peer closed in order, and the messages it sent before are still to arrive or to be read. */
    private static boolean lastMessagesToBeRead(UcxSocketChannel channel) {
        return channel.session.peerClosedInOrder() && channel.peerHasMessagesToBeRead();
    }

    /**
     * The peer closed in order and its last messages are still to be read. Over TCP the kernel takes such a
     * write (the peer answers it with a reset later) and those messages stay readable; failing it instead
     * makes HTTP/2 (gRPC's client) close the connection at once, and the answers it had not read yet were
     * lost. So the write is taken and dropped, as the peer would never read it, and the channel reads on to
     * the peer's end; writes after that fail as a reset. As the kernel takes a send buffer's worth, this takes
     * the writes flushed so far up to the channel's write buffer high water mark since the peer's close, and
     * leaves the rest: taking every write would let a handler that writes whenever the channel is writable (as
     * each drop makes it) keep the loop for ever, and the peer's last messages would never be read.
     */
    private static void drop(UcxSocketChannel channel, ChannelOutboundBuffer in) {
        long budget = channel.config().getWriteBufferHighWaterMark();
        if (!in.isEmpty() && channel.droppedAfterPeerClose < budget && logger.isDebugEnabled()) {
            logger.debug("{} drops up to {} bytes written after the peer closed; {} of its {} messages are read",
                    channel, budget - channel.droppedAfterPeerClose,
                    Integer.toUnsignedString(channel.messagesReceived()),
                    Integer.toUnsignedString(channel.session.peerFinalSeq()));
        }
        // Only the writes flushed before: a handler told that the channel is writable again adds more meanwhile.
        for (int n = in.size(); n > 0 && channel.droppedAfterPeerClose < budget; n--) {
            channel.droppedAfterPeerClose += bytes(in.current());
            in.remove(); // the write completes, as one the kernel took
        }
    }

    private static long bytes(Object msg) {
        if (msg instanceof ByteBuf) {
            return ((ByteBuf) msg).readableBytes();
        }
        if (msg instanceof FileRegion) {
            FileRegion region = (FileRegion) msg;
            return region.count() - region.transferred();
        }
        return 0;
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
