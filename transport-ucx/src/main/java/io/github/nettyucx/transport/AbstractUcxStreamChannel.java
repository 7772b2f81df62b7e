/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.FileRegion;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.socket.DuplexChannelConfig;
import io.netty.util.internal.StringUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NotYetConnectedException;

/**
 * What a UCX stream channel does with its connection's bytes, whichever way they travel: the read loop
 * (bytes arrive in {@link UcxStreamUnsafe#readReady()}, from the link's {@link UcxInput}, and go up the pipeline
 * in {@link UcxStreamReadLoop}), writes
 * ({@link #doWrite}: bytes leave through the {@link UcxLink}; a channel takes {@link ByteBuf}s and
 * {@link FileRegion}s), and half-close. The side channel, its {@link UcxSession} events and connect are the
 * subclass's ({@link UcxSocketChannel}).
 */
abstract class AbstractUcxStreamChannel extends AbstractUcxChannel implements DuplexChannel {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(AbstractUcxStreamChannel.class);
    /** Set by the subclass; replaced only when a client's connect starts over as plain TCP. */
    UcxSession session;
    /** What carries the connection's bytes in its current phase: the handshake, then the data path. */
    UcxLink link;
    volatile boolean active;
    volatile boolean inputShutdown;
    private volatile boolean outputShutdown;
    boolean writePending;
    boolean readPending;
    private boolean readTaskScheduled;
    boolean inputClosedSeenErrorOnRead;
    private final Runnable readTask = () -> ((UcxStreamUnsafe) unsafe()).readReady();
    private final Runnable retryWrite = () -> {
        if (isOpen()) {
            ((UcxStreamUnsafe) unsafe()).resumeWriting();
        }
    };
    /** Resumes, from the loop's next tasks, a write a FileRegion without bytes to give held back. */
    final Runnable retryWriteLater = () -> eventLoop().execute(retryWrite);

    AbstractUcxStreamChannel(Channel parent, int fd) {
        super(parent, fd);
    }

    /** Called before a write looks at the session: a chance to pick up a close record the loop has not seen. */
    abstract void beforeWrite();

    /** Whether large messages go up the pipeline in the buffer they were received into (RECEIVE_IN_PLACE). */
    abstract boolean receiveInPlace();

    @Override
    public abstract DuplexChannelConfig config();

    @Override
    public boolean isActive() {
        return active;
    }

    // ---- reading ----

    /**
     * True while messages the peer sent before its close are still to arrive or to be read, and this channel
     * reads: a write to the closed peer is then dropped, keeping them readable. A channel that does not read
     * would never reach the close and would stay open; it is reset instead, as over TCP.
     */
    final boolean peerHasMessagesToBeRead() {
        UcxConnection connection = link.connection();
        return connection != null && !inputShutdown && readWanted()
                && (connection.hasReadable() || session.peerMessagesInFlight(connection.messagesReceived()));
    }

    final boolean atEndOfInput() {
        return link.input().atEnd();
    }

    final boolean shouldBreakReading() {
        return inputShutdown && (inputClosedSeenErrorOnRead || !config().isAllowHalfClosure());
    }

    final boolean readWanted() {
        return config().isAutoRead() || readPending;
    }

    /**
     * Schedules the read loop when bytes are wanted and there, or when the peer's end of stream is
     * reached: like epoll's EPOLLRDHUP, that is delivered even without a pending read.
     */
    final void scheduleReadIfNeeded() {
        if (!readTaskScheduled && readable()) {
            readTaskScheduled = true;
            eventLoop().execute(readTask);
        }
    }

    final boolean readable() {
        return active && (readWanted() && link.input().hasReadable() || atEndOfInput() && !inputClosedSeenErrorOnRead);
    }

    /** Auto-read was switched off: a read requested before no longer counts. */
    void clearReadPending() {
        if (isRegistered() && !eventLoop().inEventLoop()) {
            eventLoop().execute(this::clearReadPending0);
        } else {
            clearReadPending0();
        }
    }

    private void clearReadPending0() {
        readPending = false;
        readsWantedChanged();
    }

    /** Tells the input whether the channel reads now (a plain socket is watched for input only then). */
    final void readsWantedChanged() {
        link.input().readsWanted(readWanted() && !inputShutdown);
    }

    @Override
    protected void doBeginRead() {
        readPending = true;
        readsWantedChanged();
        scheduleReadIfNeeded();
    }

    // ---- writing ----

    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof ByteBuf || msg instanceof FileRegion) {
            return msg;
        }
        throw new UnsupportedOperationException("unsupported message type: " + StringUtil.simpleClassName(msg)
                + " (expected: " + StringUtil.simpleClassName(ByteBuf.class) + ", "
                + StringUtil.simpleClassName(FileRegion.class) + ')');
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        beforeWrite();
        if (session.peerClosedInOrder() && peerHasMessagesToBeRead()) {
            if (session.peerReset()) {
                throw new PeerResetBeforeReadException(messagesReceived(), session.peerFinalSeq());
            }
            dropWritesToClosedPeer(in);
            return;
        }
        if (session.peerWillNotRead()) {
            throw new IOException("Connection reset by peer: the peer closed the connection");
        }
        UcxConnection connection = link.connection();
        if (connection != null && !connection.isConnected()) {
            writePending = !in.isEmpty();
            return;
        }
        writePending = !link.write(in);
    }

    /**
     * The peer closed in order and its last messages are still to be read. Over TCP the kernel takes such a
     * write (the peer answers it with a reset later) and those messages stay readable; failing it instead
     * makes HTTP/2 (gRPC's client) close the connection at once, and the answers it had not read yet were
     * lost. So the write is taken and dropped, as the peer would never read it, and the channel reads on to
     * the peer's end; writes after that fail as a reset.
     */
    private void dropWritesToClosedPeer(ChannelOutboundBuffer in) {
        if (!in.isEmpty() && logger.isDebugEnabled()) {
            logger.debug("{} drops {} bytes written after the peer closed; {} of its {} messages are read", this,
                    in.totalPendingWriteBytes(), Integer.toUnsignedString(messagesReceived()),
                    Integer.toUnsignedString(session.peerFinalSeq()));
        }
        while (in.remove()) {
            // Each write completes, as one the kernel took.
        }
        writePending = false;
    }

    @Override
    protected void doShutdownOutput() throws Exception {
        if (!session.isTcpConnected() || session.isHandshaking() && !session.isPlain()) {
            // As NIO's for a connect still in progress: the handshake is part of the connect.
            throw new NotYetConnectedException();
        }
        // A record needs a peer that spoke netty-ucx (our connection exists) or a data path that is up.
        boolean peerKnown = link.connection() != null || link.kind() != null;
        if (peerKnown && fd.isOpen() && session.canAnnounceShutdown()
                && !link.records().sendShutdownOutput(messagesSent())) {
            interest(UcxIoOps.IN_OUT);
        }
        outputShutdown = true;
    }

    /** Messages sent so far, which a record says precede it (none on plain TCP, which has no messages). */
    final int messagesSent() {
        UcxConnection connection = link.connection();
        return connection == null ? 0 : connection.messagesSent();
    }

    /** The peer's messages that arrived so far (none on plain TCP, or before there is a connection). */
    final int messagesReceived() {
        UcxConnection connection = link.connection();
        return connection == null ? 0 : connection.messagesReceived();
    }

    // ---- DuplexChannel ----

    // As on NIO, a channel that is not active counts as shut down in both directions.
    @Override
    public boolean isInputShutdown() {
        return inputShutdown || !isActive();
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown || !isActive();
    }

    @Override
    public boolean isShutdown() {
        return inputShutdown && outputShutdown || !isActive();
    }

    @Override
    public ChannelFuture shutdownOutput() {
        return shutdownOutput(newPromise());
    }

    @Override
    public ChannelFuture shutdownOutput(ChannelPromise promise) {
        EventLoop loop = eventLoop();
        if (loop.inEventLoop()) {
            ((AbstractUnsafe) unsafe()).shutdownOutput(promise);
        } else {
            loop.execute(() -> ((AbstractUnsafe) unsafe()).shutdownOutput(promise));
        }
        return promise;
    }

    @Override
    public ChannelFuture shutdownInput() {
        return shutdownInput(newPromise());
    }

    @Override
    public ChannelFuture shutdownInput(ChannelPromise promise) {
        EventLoop loop = eventLoop();
        if (loop.inEventLoop()) {
            shutdownInput0(promise);
        } else {
            loop.execute(() -> shutdownInput0(promise));
        }
        return promise;
    }

    private void shutdownInput0(ChannelPromise promise) {
        if (!isOpen()) {
            promise.setFailure(new ClosedChannelException());
            return;
        }
        if (!session.isTcpConnected()) {
            promise.setFailure(new NotYetConnectedException());
            return;
        }
        inputShutdown = true;
        promise.setSuccess();
    }

    @Override
    public ChannelFuture shutdown() {
        return shutdown(newPromise());
    }

    @Override
    public ChannelFuture shutdown(ChannelPromise promise) {
        ChannelFuture outputDone = shutdownOutput();
        outputDone.addListener((ChannelFutureListener) f -> {
            ChannelFuture inputDone = shutdownInput();
            inputDone.addListener((ChannelFutureListener) g -> {
                Throwable cause = f.cause() != null ? f.cause() : g.cause();
                if (cause != null) {
                    promise.setFailure(cause);
                } else {
                    promise.setSuccess();
                }
            });
        });
        return promise;
    }

    /** Reads, resumes writes, and delivers the end of the peer's input, on the event loop. */
    abstract class UcxStreamUnsafe extends UcxUnsafe {
        private final UcxStreamReadLoop readLoop = new UcxStreamReadLoop(AbstractUcxStreamChannel.this, this);

        @Override
        protected void flush0() {
            // While waiting for credit or the handshake, the connection's completions resume the flush.
            if (writePending) {
                return;
            }
            if (holdWrites()) {
                writePending = true;
                return;
            }
            super.flush0();
        }

        /**
         * True when writes must wait for the data path instead of failing (the subclass then sees to it that they
         * go once it is up, see {@link #resumeWriting()}).
         */
        abstract boolean holdWrites();

        /** Flushes writes that waited for credit, a send slot or the handshake, once they can go. */
        final void resumeWriting() {
            if (!writePending) {
                return;
            }
            try {
                if (!link.canSend()) {
                    return;
                }
            } catch (IOException e) {
                // A send failed after it was queued (its socket broke, or its file's bytes could not be sent): the
                // writes waiting fail with the reason, as a write that fails at once does, and the channel closes.
                writePending = false;
                handleWriteError(e);
                return;
            }
            writePending = false;
            super.flush0();
        }

        /**
         * Sends and receives of the connection completed (and, on the TCP data path, side-channel input
         * may have arrived): release what finished sends held, resume writes, read, return credits.
         */
        final void completionsReady() {
            UcxConnection connection = link.connection();
            if (connection == null || !isOpen()) {
                return;
            }
            connection.clearNotified();
            connection.releaseCompletedSends();
            int error = connection.endpointError();
            if (error != 0) {
                peerVanished(new IOException(link + " failed: " + UcxNative.statusString(error)));
                return;
            }
            try {
                connection.wakeIfHeld();
            } catch (IOException e) {
                peerVanished(e);
                return;
            }
            if (connection.sideInputReady()) {
                sideChannelReadable();
                if (!isOpen()) {
                    return;
                }
            }
            resumeWriting();
            if (readable()) {
                // Like epoll's handler: read at once, in the loop's own dispatch.
                readReady();
            }
            returnCreditsIfDue();
        }

        /** Side-channel input arrived: records, the peer's hello, or the end of its stream. */
        abstract void sideChannelReadable();

        /** The peer is gone or unreachable: fail the connect, or report {@code cause} and close. */
        abstract void peerVanished(IOException cause);

        /**
         * Flushes the writes waiting for credit at once: the peer closed and will return none, and
         * {@link #doWrite} drops writes to it while its last messages are still to be read.
         */
        final void flushToClosedPeer() {
            writePending = false;
            super.flush0();
        }

        /**
         * Delivers arrived bytes in sequence order, like epoll's read loop delivers socket reads, then the end of
         * the peer's input: {@link UcxStreamReadLoop}.
         */
        final void readReady() {
            readTaskScheduled = false;
            readLoop.read();
        }

        /** Returns the peer's credits when due; a data path that failed to closes the channel. */
        final void returnCreditsIfDue() {
            try {
                link.returnCreditsIfDue();
            } catch (IOException e) {
                pipeline().fireExceptionCaught(e);
                close(voidPromise());
            }
        }
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
