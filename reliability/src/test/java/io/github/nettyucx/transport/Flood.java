/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes 64 KiB chunks whenever the channel is writable, never reads, and remembers the first failed write. A slow
 * flood first blocks its event loop for a while each time the channel turns writable again, as a handler doing
 * blocking work there would.
 */
final class Flood extends ChannelInboundHandlerAdapter {
    private static final int CHUNK = 64 * 1024;

    final AtomicLong written = new AtomicLong();
    volatile Throwable failure;
    private final long blockMillis;

    Flood() {
        this(0);
    }

    Flood(long blockMillis) {
        this.blockMillis = blockMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        pump(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws InterruptedException {
        if (blockMillis > 0 && ctx.channel().isWritable()) {
            Thread.sleep(blockMillis);
        }
        pump(ctx);
    }

    private void pump(ChannelHandlerContext ctx) {
        while (ctx.channel().isActive() && ctx.channel().isWritable()) {
            ByteBuf chunk = ctx.alloc().directBuffer(CHUNK);
            chunk.writerIndex(CHUNK);
            written.addAndGet(CHUNK);
            ctx.writeAndFlush(chunk).addListener(f -> {
                if (!f.isSuccess() && failure == null) {
                    failure = f.cause();
                }
            });
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
