/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxIoHandlerConfig;
import io.github.nettyucx.loop.WaitStrategy;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every wait strategy delivers: round trips driven by the loop, writes from an application thread to a loop that
 * has gone idle (a wake-up), and a task scheduled on an idle loop. Correctness only; their speed is measured by
 * the benchmarks.
 */
class WaitStrategyTest {
    private static final int ROUND_TRIPS = 500;

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    @Timeout(60)
    void everyStrategyDeliversAndWakesUp(WaitStrategy strategy) throws Exception {
        TestTransport.requireUcx();
        UcxIoHandlerConfig config = new UcxIoHandlerConfig().waitStrategy(strategy, 20, TimeUnit.MICROSECONDS);
        EventLoopGroup group = new UcxEventLoopGroup(2, config);
        try {
            Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new Echo());
                        }
                    }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            BlockingQueue<ByteBuf> replies = new LinkedBlockingQueue<>();
            Channel client = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            replies.add((ByteBuf) msg);
                        }
                    }).connect(server.localAddress()).sync().channel();
            try {
                for (int i = 0; i < ROUND_TRIPS; i++) {
                    if (i % 100 == 99) {
                        Thread.sleep(20); // the loops go idle (and, where the strategy says so, to sleep)
                    }
                    byte[] sent = new byte[1 + ThreadLocalRandom.current().nextInt(4096)];
                    ThreadLocalRandom.current().nextBytes(sent);
                    client.writeAndFlush(Unpooled.wrappedBuffer(sent));
                    assertArrayEquals(sent, readBytes(replies, sent.length));
                }
                Thread.sleep(20);
                ScheduledFuture<Boolean> task = client.eventLoop().schedule(() -> true, 5, TimeUnit.MILLISECONDS);
                assertTrue(task.get(10, TimeUnit.SECONDS));
            } finally {
                client.close().sync();
                server.close().sync();
            }
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** The next {@code length} bytes of the replies, which may come in pieces. */
    private static byte[] readBytes(BlockingQueue<ByteBuf> replies, int length) throws InterruptedException {
        byte[] out = new byte[length];
        int filled = 0;
        while (filled < length) {
            ByteBuf piece = replies.poll(10, TimeUnit.SECONDS);
            assertNotNull(piece, "no reply within 10 s");
            try {
                int n = Math.min(piece.readableBytes(), length - filled);
                piece.readBytes(out, filled, n);
                filled += n;
                assertTrue(!piece.isReadable(), "a reply longer than the request");
            } finally {
                piece.release();
            }
        }
        return out;
    }
}
