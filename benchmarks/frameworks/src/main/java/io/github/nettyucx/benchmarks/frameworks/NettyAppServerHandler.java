/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.zip.CRC32C;

/** The server side of {@link NettyAppFramework}: echoes, and checks bulk transfers with a CRC. */
final class NettyAppServerHandler extends ChannelInboundHandlerAdapter {
    private final CRC32C crc = new CRC32C();
    private long received;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        byte type = frame.getByte(frame.readerIndex());
        if (type == NettyAppFrames.ECHO) {
            ctx.write(frame);
            return;
        }
        try {
            if (type == NettyAppFrames.UPLOAD) {
                received += frame.readableBytes() - 1;
                crc.update(frame.nioBuffer(frame.readerIndex() + 1, frame.readableBytes() - 1));
            } else if (type == NettyAppFrames.FINISH) {
                frame.skipBytes(1);
                boolean match = frame.readLong() == crc.getValue() && frame.readLong() == received;
                crc.reset();
                received = 0;
                ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {NettyAppFrames.FINISH, (byte) (match ? 1 : 0)}));
            } else {
                throw new IllegalStateException("unknown frame type " + type);
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        System.err.println("server connection failed: " + cause);
        ctx.close();
    }
}
