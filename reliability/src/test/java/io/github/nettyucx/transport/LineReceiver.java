/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;

/**
 * A test client's handler for the echo server's line protocol: each line received (without its newline) goes to a
 * queue, whatever the message boundaries; an exception closes the channel (the server went away, and the test reports
 * what it missed).
 */
final class LineReceiver extends SimpleChannelInboundHandler<ByteBuf> {
    private final StringBuilder text = new StringBuilder();
    private final BlockingQueue<String> lines;

    LineReceiver(BlockingQueue<String> lines) {
        this.lines = lines;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
        text.append(msg.toString(StandardCharsets.US_ASCII));
        int end;
        while ((end = text.indexOf("\n")) >= 0) {
            lines.add(text.substring(0, end));
            text.delete(0, end + 1);
        }
    }
}
