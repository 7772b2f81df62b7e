/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * Binds {@code server} (as configured, with an {@link Echo} handler) on loopback, connects {@code client} to it
     * with a checker of {@code bytes}, and asserts that every byte came back intact, with no exception on either
     * side; closes both.
     */
    static void echoThrough(ServerBootstrap server, Bootstrap client, int bytes) throws Exception {
        Echo echo = new Echo();
        Channel listener = server.childHandler(echo)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        try {
            EchoChecker checker = new EchoChecker(bytes);
            Channel channel = client.handler(checker).connect(listener.localAddress()).sync().channel();
            try {
                assertEquals((long) bytes, checker.echoed.get(30, TimeUnit.SECONDS));
                assertTrue(checker.exceptions.isEmpty(), () -> "client: " + checker.exceptions);
                assertTrue(echo.exceptions.isEmpty(), () -> "server: " + echo.exceptions);
            } finally {
                channel.close().sync();
            }
        } finally {
            listener.close().sync();
        }
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
