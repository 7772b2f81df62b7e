/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** A server's child handler that echoes everything back, and records exceptions (then closes). */
public final class Echo extends ChannelInboundHandlerAdapter {
    public final Queue<Throwable> exceptions = new ConcurrentLinkedQueue<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        exceptions.add(cause);
        ctx.close();
    }
}
