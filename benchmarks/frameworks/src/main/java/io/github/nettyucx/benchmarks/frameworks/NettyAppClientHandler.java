/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * The client side of {@link NettyAppFramework}: answers go to the waiting call's future, in order, or drive the
 * loop's ping-pong; a bulk transfer's verdict completes its future; writability changes wake the writing thread.
 */
@ChannelHandler.Sharable
final class NettyAppClientHandler extends ChannelInboundHandlerAdapter {
    final Queue<CompletableFuture<Integer>> calls = new ConcurrentLinkedQueue<>();
    final Object writability = new Object();
    private volatile CompletableFuture<Boolean> finish;
    /** Set while the loop's ping-pong runs (only on the event loop). */
    private PingPong pingPong;

    /** The loop's ping-pong: on the event loop, until {@code stop}; {@code done} completes after the last answer. */
    void startPingPong(ChannelHandlerContext ctx, int bytes, LongConsumer roundTrip, BooleanSupplier stop,
                       CompletableFuture<Void> done) {
        pingPong = new PingPong(bytes, roundTrip, stop, done);
        pingPong.send(ctx);
    }

    CompletableFuture<Boolean> expectFinish() {
        CompletableFuture<Boolean> f = new CompletableFuture<>();
        finish = f;
        return f;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            byte type = frame.getByte(frame.readerIndex());
            if (type == NettyAppFrames.FINISH) {
                finish.complete(frame.getByte(frame.readerIndex() + 1) == 1);
            } else if (pingPong != null) {
                if (!pingPong.answered(ctx)) {
                    pingPong = null;
                }
            } else {
                CompletableFuture<Integer> call = calls.poll();
                if (call == null) {
                    throw new IllegalStateException("an answer nobody asked for");
                }
                call.complete(frame.readableBytes() - 1);
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        synchronized (writability) {
            writability.notifyAll();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        failAll(new IOException("the connection closed"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        failAll(cause);
        ctx.close();
    }

    private void failAll(Throwable cause) {
        for (CompletableFuture<Integer> call; (call = calls.poll()) != null; ) {
            call.completeExceptionally(cause);
        }
        CompletableFuture<Boolean> f = finish;
        if (f != null) {
            f.completeExceptionally(cause);
        }
        if (pingPong != null) {
            pingPong.done.completeExceptionally(cause);
        }
    }

    /** One ping-pong's state; the request is a new heap buffer each time, as an application's would be. */
    private static final class PingPong {
        private final byte[] payload;
        private final LongConsumer roundTrip;
        private final BooleanSupplier stop;
        private final CompletableFuture<Void> done;
        private long sentAt;

        PingPong(int bytes, LongConsumer roundTrip, BooleanSupplier stop, CompletableFuture<Void> done) {
            this.payload = new byte[bytes];
            this.roundTrip = roundTrip;
            this.stop = stop;
            this.done = done;
        }

        void send(ChannelHandlerContext ctx) {
            sentAt = System.nanoTime();
            ctx.writeAndFlush(Unpooled.buffer(1 + payload.length).writeByte(NettyAppFrames.ECHO).writeBytes(payload));
        }

        /** An answer came: records it and sends the next request; false once stopped. */
        boolean answered(ChannelHandlerContext ctx) {
            roundTrip.accept(System.nanoTime() - sentAt);
            if (stop.getAsBoolean()) {
                done.complete(null);
                return false;
            }
            send(ctx);
            return true;
        }
    }
}
