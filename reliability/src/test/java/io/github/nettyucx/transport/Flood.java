/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.concurrent.atomic.AtomicLong;

/** Writes 64 KiB chunks whenever the channel is writable, never reads, and remembers the first failed write. */
final class Flood extends ChannelInboundHandlerAdapter {
    private static final int CHUNK = 64 * 1024;

    final AtomicLong written = new AtomicLong();
    volatile Throwable failure;

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        pump(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
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
