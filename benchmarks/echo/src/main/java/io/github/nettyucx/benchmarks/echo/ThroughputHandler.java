/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/** Writes phases of messages as fast as the channel accepts them; the server acks each phase. */
final class ThroughputHandler extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Void> active = new CompletableFuture<>();
    private final int size;
    private final int flushEvery;
    private ChannelHandlerContext ctx;
    private ByteBuf payload;
    private CompletableFuture<Void> phase;
    private long remaining;
    private long deadline;

    ThroughputHandler(int size, int flushEvery) {
        this.size = size;
        this.flushEvery = flushEvery;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        payload = ctx.alloc().directBuffer(size).writeZero(size);
        ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('S'));
        active.complete(null);
    }

    CompletableFuture<Void> phase(long messages, long deadline) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        ctx.executor().execute(() -> {
            phase = f;
            remaining = messages;
            this.deadline = deadline;
            ctx.write(ctx.alloc().buffer(8).writeLong(messages * size), ctx.voidPromise());
            writeMore();
        });
        return f;
    }

    private void writeMore() {
        if (phase == null) {
            return;
        }
        int batches = 0;
        while (remaining > 0 && ctx.channel().isWritable()) {
            int n = (int) Math.min(flushEvery, remaining);
            for (int i = 0; i < n; i++) {
                ctx.write(payload.retainedDuplicate(), ctx.voidPromise());
            }
            remaining -= n;
            ctx.flush();
            if (++batches >= 64 && remaining > 0) {
                // Let the other channels of this event loop have their turn.
                ctx.executor().execute(this::writeMore);
                return;
            }
        }
        if (remaining > 0 && System.nanoTime() - deadline > 0) {
            fail(new TimeoutException("time limit reached with " + remaining + " messages unsent"));
        }
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable() && remaining > 0) {
            writeMore();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        int acks = buf.readableBytes();
        buf.release();
        if (acks > 0 && phase != null && remaining == 0) {
            CompletableFuture<Void> f = phase;
            phase = null;
            f.complete(null);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        fail(new IOException("connection closed"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause);
        ctx.close();
    }

    private void fail(Throwable cause) {
        active.completeExceptionally(cause);
        if (phase != null) {
            CompletableFuture<Void> f = phase;
            phase = null;
            f.completeExceptionally(cause);
        }
        if (payload != null && !ctx.channel().isActive()) {
            // Its duplicates in flight share its count: only this handler's own reference goes here, once.
            payload.release();
            payload = null;
        }
    }
}
