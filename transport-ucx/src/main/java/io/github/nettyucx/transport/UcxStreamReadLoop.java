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
import io.netty.channel.socket.DuplexChannelConfig;

import java.io.IOException;

/**
 * The read loop of an {@link AbstractUcxStreamChannel}: hands the bytes that arrived through the link's
 * {@link UcxInput} up the pipeline, in buffers of the channel's {@link RecvByteBufAllocator}, then the end of the
 * peer's input (a half-close, a reset, or the close), as Netty's socket transports do. The channel keeps the state
 * it reads by (a read pending, the input shut down), which its writes and half-close use too. On the channel's
 * event loop only.
 */
final class UcxStreamReadLoop {
    private final AbstractUcxStreamChannel channel;
    private final AbstractUcxStreamChannel.UcxStreamUnsafe unsafe;

    UcxStreamReadLoop(AbstractUcxStreamChannel channel, AbstractUcxStreamChannel.UcxStreamUnsafe unsafe) {
        this.channel = channel;
        this.unsafe = unsafe;
    }

    /**
     * Delivers arrived bytes in sequence order, like epoll's read loop delivers socket reads. (Netty's
     * Unsafe hands out its RecvByteBufAllocator.Handle, deprecated in favour of ExtendedHandle, which a
     * user's allocator need not implement.)
     */
    @SuppressWarnings("deprecation")
    void read() {
        if (!channel.active) {
            return;
        }
        if (channel.shouldBreakReading()) {
            discardInput();
            return;
        }
        if (!channel.readWanted() && !channel.atEndOfInput()) {
            return;
        }
        DuplexChannelConfig config = channel.config();
        ChannelPipeline pipeline = channel.pipeline();
        ByteBufAllocator allocator = config.getAllocator();
        RecvByteBufAllocator.Handle allocHandle = unsafe.recvBufAllocHandle();
        UcxInput input = channel.link.input();
        allocHandle.reset(config);
        ByteBuf byteBuf = null;
        boolean endOfInput = false;
        try {
            do {
                if (channel.atEndOfInput()) {
                    endOfInput = true;
                    channel.readPending = false;
                    break;
                }
                if (!input.hasReadable()) {
                    break;
                }
                // The handle's guess bounds a read, as the user's RecvByteBufAllocator expects.
                byteBuf = channel.receiveInPlace() ? input.readInPlace(allocHandle.guess()) : null;
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
                        channel.readPending = false;
                    }
                    break;
                }
                allocHandle.incMessagesRead(1);
                channel.readPending = false;
                pipeline.fireChannelRead(byteBuf);
                byteBuf = null;
                if (channel.shouldBreakReading() || !channel.isOpen()) {
                    break;
                }
            } while (allocHandle.continueReading());
            allocHandle.readComplete();
            pipeline.fireChannelReadComplete();
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
                channel.readsWantedChanged();
                channel.scheduleReadIfNeeded();
            }
        }
    }

    private void discardInput() {
        try {
            channel.link.input().discardReadable();
        } catch (IOException e) {
            channel.pipeline().fireExceptionCaught(e);
            unsafe.close(unsafe.voidPromise());
            return;
        }
        unsafe.returnCreditsIfDue();
    }

    @SuppressWarnings("deprecation")
    private void handleReadException(ChannelPipeline pipeline, ByteBuf byteBuf, Throwable cause,
                                     RecvByteBufAllocator.Handle allocHandle) {
        if (byteBuf != null) {
            if (byteBuf.isReadable()) {
                channel.readPending = false;
                pipeline.fireChannelRead(byteBuf);
            } else {
                byteBuf.release();
            }
        }
        allocHandle.readComplete();
        pipeline.fireChannelReadComplete();
        pipeline.fireExceptionCaught(cause);
        if (cause instanceof IOException || cause instanceof OutOfMemoryError) {
            unsafe.close(unsafe.voidPromise());
        }
    }

    /**
     * The peer closed with {@code SO_LINGER} 0 and all it sent before has been read: as Netty's socket
     * transports handle a read that meets a TCP reset, the channel reports it, then its input ends (closing
     * the channel unless half-closure is allowed).
     */
    private void peerResetAtEndOfInput() {
        channel.inputClosedSeenErrorOnRead = true;
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
                unsafe.close(unsafe.voidPromise());
                return;
            }
        }
        if (allDataRead && !channel.inputClosedSeenErrorOnRead) {
            channel.inputClosedSeenErrorOnRead = true;
            channel.pipeline().fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
        }
    }
}
