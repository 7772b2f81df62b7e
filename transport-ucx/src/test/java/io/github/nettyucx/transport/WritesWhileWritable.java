/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A producer driven by writability, as a chunked writer is: writes chunks of zeros whenever the channel is writable,
 * from the moment it is active, and counts the bytes. Everything else goes on down the pipeline.
 */
@ChannelHandler.Sharable
class WritesWhileWritable extends ChannelInboundHandlerAdapter {
    final AtomicLong written = new AtomicLong();
    private final int chunk;

    WritesWhileWritable(int chunk) {
        this.chunk = chunk;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        pump(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        pump(ctx);
        ctx.fireChannelWritabilityChanged();
    }

    private void pump(ChannelHandlerContext ctx) {
        Channel ch = ctx.channel();
        while (ch.isActive() && ch.isWritable()) {
            ByteBuf buf = ctx.alloc().directBuffer(chunk);
            buf.writerIndex(chunk);
            written.addAndGet(chunk);
            ctx.writeAndFlush(buf);
        }
    }
}
