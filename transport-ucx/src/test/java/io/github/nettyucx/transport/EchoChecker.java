/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A client handler for an {@link Echo} server: once active it sends a {@link DataStream} of the given length,
 * and checks every byte that comes back; {@link #echoed} completes with the length once all came back intact.
 * Records exceptions (then closes).
 */
final class EchoChecker extends ChannelInboundHandlerAdapter {
    private static final long SEED = 7;

    private final int bytes;
    private final DataStream expected = new DataStream(SEED);
    final Queue<Throwable> exceptions = new ConcurrentLinkedQueue<>();
    final Promise<Long> echoed = ImmediateEventExecutor.INSTANCE.newPromise();

    EchoChecker(int bytes) {
        this.bytes = bytes;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ByteBuf data = ctx.alloc().directBuffer(bytes);
        new DataStream(SEED).writeTo(data, bytes);
        ctx.writeAndFlush(data);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        try {
            String mismatch = expected.check(buf);
            if (mismatch != null) {
                echoed.tryFailure(new AssertionError(mismatch));
            } else if (expected.position() == bytes) {
                echoed.trySuccess(expected.position());
            }
        } finally {
            buf.release();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        exceptions.add(cause);
        ctx.close();
    }
}
