/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/** Sends one message, waits until all of its bytes came back, records the round trip, repeats. */
final class PingPongHandler extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Void> active = new CompletableFuture<>();
    private final int size;
    private ChannelHandlerContext ctx;
    private ByteBuf payload;
    private CompletableFuture<Integer> phase;
    private Histogram rtts;
    private boolean record;
    private int target;
    private int done;
    private int pending;
    private long start;
    private long deadline;

    PingPongHandler(int size) {
        this.size = size;
    }

    /** The round trips (ns) of the last recorded phase, as many as it completed. */
    Histogram rtts() {
        return rtts;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        payload = ctx.alloc().directBuffer(size).writeZero(size);
        ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('E'));
        active.complete(null);
    }

    CompletableFuture<Integer> phase(int count, boolean record, long deadline) {
        CompletableFuture<Integer> f = new CompletableFuture<>();
        ctx.executor().execute(() -> {
            phase = f;
            this.record = record;
            if (record) {
                rtts = new Histogram(3);
            }
            this.target = count;
            this.done = 0;
            this.deadline = deadline;
            send();
        });
        return f;
    }

    private void send() {
        pending = size;
        start = System.nanoTime();
        ctx.writeAndFlush(payload.retainedDuplicate(), ctx.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        pending -= buf.readableBytes();
        buf.release();
        if (pending > 0 || phase == null) {
            return;
        }
        long now = System.nanoTime();
        if (record) {
            rtts.recordValue(now - start);
        }
        done++;
        if (done >= target || now - deadline > 0) {
            CompletableFuture<Integer> f = phase;
            phase = null;
            f.complete(done);
        } else {
            send();
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
            phase.completeExceptionally(cause);
            phase = null;
        }
        if (payload != null) {
            payload.release();
            payload = null;
        }
    }
}
