/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;

import java.io.IOException;

/**
 * The read loop of a {@link UcxSocketChannel}: hands the bytes that arrived through the link's {@link UcxInput} up
 * the pipeline, in buffers of the channel's {@link RecvByteBufAllocator}, then the end of the peer's input (a
 * half-close, a reset, or the close), as Netty's socket transports do. It keeps the state it reads by (a read
 * pending, a read scheduled, the end delivered); the channel's writes ask it whether the peer's last messages are
 * still to be read. On the channel's event loop only, except {@link #clearPending()}.
 */
final class UcxSocketReadLoop {
    private final UcxSocketChannel channel;
    /** A read was asked for ({@code read()} or auto-read) and no bytes went up since. */
    private boolean pending;
    private boolean scheduled;
    /** The end of the peer's input went up the pipeline (or the channel closed): nothing more is read. */
    boolean inputClosedSeenErrorOnRead;
    private final Runnable readTask = this::read;

    UcxSocketReadLoop(UcxSocketChannel channel) {
        this.channel = channel;
    }

    /** A read is asked for ({@code doBeginRead}). */
    void begin() {
        pending = true;
        wantedChanged();
        scheduleIfNeeded();
    }

    /**
     * Schedules the read loop when bytes are wanted and there, or when the peer's end of stream is
     * reached: like epoll's EPOLLRDHUP, that is delivered even without a pending read.
     */
    void scheduleIfNeeded() {
        if (!scheduled && readable()) {
            scheduled = true;
            channel.eventLoop().execute(readTask);
        }
    }

    boolean readable() {
        return channel.active && (wanted() && channel.link.input().hasReadable()
                || atEndOfInput() && !inputClosedSeenErrorOnRead);
    }

    private boolean wanted() {
        return channel.config().isAutoRead() || pending;
    }

    /** Auto-read was switched off: a read requested before no longer counts. */
    void clearPending() {
        if (channel.isRegistered() && !channel.eventLoop().inEventLoop()) {
            channel.eventLoop().execute(this::clearPending);
            return;
        }
        pending = false;
        wantedChanged();
        if (channel.isOpen()) {
            UcxClosedPeerWrites.failHeldWrites(channel);
        }
    }

    /** Tells the input whether the channel reads now (a plain socket is watched for input only then). */
    void wantedChanged() {
        channel.link.input().readsWanted(wanted() && !channel.inputShutdown);
    }

    private boolean shouldBreak() {
        return channel.inputShutdown && (inputClosedSeenErrorOnRead || !channel.config().isAllowHalfClosure());
    }

    private boolean atEndOfInput() {
        return channel.link.input().atEnd();
    }

    /**
     * True while messages the peer sent before its close are still to arrive or to be read, and this channel
     * reads: a write to the closed peer is then dropped, keeping them readable. A channel that does not read
     * would never reach the close and would stay open; it is reset instead, as over TCP.
     */
    boolean peerHasMessagesToBeRead() {
        UcxConnection connection = channel.link.connection();
        return connection != null && !channel.inputShutdown && wanted()
                && (connection.hasReadable() || channel.session.peerMessagesInFlight(connection.messagesReceived()));
    }

    /**
     * Delivers arrived bytes in sequence order, like epoll's read loop delivers socket reads. (Netty's
     * Unsafe hands out its RecvByteBufAllocator.Handle, deprecated in favour of ExtendedHandle, which a
     * user's allocator need not implement.)
     */
    @SuppressWarnings("deprecation")
    void read() {
        scheduled = false;
        if (!channel.active) {
            return;
        }
        if (shouldBreak()) {
            discardInput();
            return;
        }
        if (!wanted() && !atEndOfInput()) {
            return;
        }
        UcxSocketChannelConfig config = channel.config();
        ChannelPipeline pipeline = channel.pipeline();
        ByteBufAllocator allocator = config.getAllocator();
        UcxSocketChannel.UcxSocketUnsafe unsafe = channel.unsafe();
        RecvByteBufAllocator.Handle allocHandle = unsafe.recvBufAllocHandle();
        UcxInput input = channel.link.input();
        allocHandle.reset(config);
        ByteBuf byteBuf = null;
        boolean endOfInput = false;
        boolean delivered = false;
        try {
            do {
                if (atEndOfInput()) {
                    endOfInput = true;
                    pending = false;
                    break;
                }
                if (!input.hasReadable()) {
                    break;
                }
                // The handle's guess bounds a read, as the user's RecvByteBufAllocator expects.
                byteBuf = config.isReceiveInPlace() ? input.readInPlace(allocHandle.guess()) : null;
                if (byteBuf != null) {
                    allocHandle.attemptedBytesRead(byteBuf.readableBytes());
                    allocHandle.lastBytesRead(byteBuf.readableBytes());
                } else {
                    byteBuf = allocHandle.allocate(allocator);
                    allocHandle.attemptedBytesRead(byteBuf.writableBytes());
                    allocHandle.lastBytesRead(input.read(byteBuf));
                }
                if (allocHandle.lastBytesRead() <= 0) {
                    byteBuf.release();
                    byteBuf = null;
                    if (allocHandle.lastBytesRead() < 0) {
                        endOfInput = true;
                        pending = false;
                    }
                    break;
                }
                allocHandle.incMessagesRead(1);
                pending = false;
                delivered = true;
                pipeline.fireChannelRead(byteBuf);
                byteBuf = null;
                if (shouldBreak() || !channel.isOpen()) {
                    break;
                }
            } while (allocHandle.continueReading());
            allocHandle.readComplete();
            if (delivered || endOfInput) {
                // A round that found nothing (plain TCP guesses that a full read left more) is no round for the
                // pipeline: a read() with AUTO_READ off stays pending until bytes come.
                pipeline.fireChannelReadComplete();
            }
            if (channel.isOpen()) {
                unsafe.returnCreditsIfDue();
            }
            IOException endFailure = endOfInput ? input.endFailure() : null;
            if (endFailure != null) {
                // As Netty's socket transports report a read that meets a reset: the error, then the close.
                pipeline.fireExceptionCaught(endFailure);
                unsafe.close(unsafe.voidPromise());
            } else if (endOfInput) {
                if (channel.session.peerReset()) {
                    peerResetAtEndOfInput();
                } else {
                    shutdownInput(true);
                }
            }
        } catch (Throwable t) {
            handleReadException(pipeline, byteBuf, t, allocHandle);
        } finally {
            if (channel.isOpen()) {
                wantedChanged();
                scheduleIfNeeded();
                UcxClosedPeerWrites.failHeldWrites(channel);
            }
        }
    }

    private void discardInput() {
        try {
            channel.link.input().discardReadable();
        } catch (IOException e) {
            channel.pipeline().fireExceptionCaught(e);
            channel.unsafe().close(channel.unsafe().voidPromise());
            return;
        }
        channel.unsafe().returnCreditsIfDue();
    }

    @SuppressWarnings("deprecation")
    private void handleReadException(ChannelPipeline pipeline, ByteBuf byteBuf, Throwable cause,
                                     RecvByteBufAllocator.Handle allocHandle) {
        if (byteBuf != null) {
            if (byteBuf.isReadable()) {
                pending = false;
                pipeline.fireChannelRead(byteBuf);
            } else {
                byteBuf.release();
            }
        }
        allocHandle.readComplete();
        pipeline.fireChannelReadComplete();
        pipeline.fireExceptionCaught(cause);
        if (cause instanceof IOException || cause instanceof OutOfMemoryError) {
            channel.unsafe().close(channel.unsafe().voidPromise());
        }
    }

    /**
     * The peer closed with {@code SO_LINGER} 0 and all it sent before has been read: as Netty's socket
     * transports handle a read that meets a TCP reset, the channel reports it, then its input ends (closing
     * the channel unless half-closure is allowed).
     */
    private void peerResetAtEndOfInput() {
        inputClosedSeenErrorOnRead = true;
        channel.pipeline().fireExceptionCaught(
                new IOException("Connection reset by peer (it closed with SO_LINGER 0)"));
        if (channel.isOpen()) {
            shutdownInput(false);
        }
    }

    /** Peer's end of stream reached: half-close when allowed, else close, as Netty's socket transports do. */
    private void shutdownInput(boolean allDataRead) {
        if (!channel.inputShutdown) {
            if (channel.config().isAllowHalfClosure()) {
                channel.inputShutdown = true;
                channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            } else {
                channel.unsafe().close(channel.unsafe().voidPromise());
                return;
            }
        }
        if (allDataRead && !inputClosedSeenErrorOnRead) {
            inputClosedSeenErrorOnRead = true;
            channel.pipeline().fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
        }
    }
}
