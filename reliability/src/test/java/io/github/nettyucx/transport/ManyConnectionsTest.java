/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 1,000 connections open at once on one 2-thread group (both ends in this JVM, so 2,000 channels), each
 * exchanging messages; then the memory an idle connection costs is measured (RSS and descriptors per
 * connection), and everything must be given back when they close.
 */
class ManyConnectionsTest {
    private static final int CONNECTIONS = 1_000;
    private static final int ROUNDS = 4;
    private static final int MESSAGE = 1024;
    private static final AttributeKey<Integer> ECHOED = AttributeKey.valueOf("echoed");

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void thousandConnectionsOnTwoThreads() throws Exception {
        TestTransport.UCX.assumeAvailable();
        EventLoopGroup group = TestTransport.UCX.newGroup(2);
        try {
            Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, CONNECTIONS)
                    .childHandler(EchoServerHandler.INSTANCE)
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            InetSocketAddress address = (InetSocketAddress) server.localAddress();
            LeakChecks.warmUp(group);
            System.gc();
            ResourceSnapshot before = LeakChecks.baseline();

            CountDownLatch allEchoed = new CountDownLatch(CONNECTIONS);
            AtomicInteger failures = new AtomicInteger();
            Client client = new Client(allEchoed, failures);
            Bootstrap bootstrap = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 60_000).handler(client);
            long start = System.nanoTime();
            List<ChannelFuture> connects = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                connects.add(bootstrap.connect(address));
            }
            List<Channel> channels = new ArrayList<>();
            for (ChannelFuture f : connects) {
                assertTrue(f.await(60, TimeUnit.SECONDS), "connect did not complete");
                assertTrue(f.isSuccess(), "connect failed: " + f.cause());
                channels.add(f.channel());
            }
            long connectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(allEchoed.await(120, TimeUnit.SECONDS), allEchoed.getCount() + " connections did not finish "
                    + ROUNDS + " echo rounds; failures: " + failures);
            long exchangedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(0, failures.get(), "connections failed");
            assertEquals(2L * CONNECTIONS, UcxNative.connectionsAllocated() - before.nativeConnections);

            Thread.sleep(1000); // idle
            System.gc();
            ResourceSnapshot open = LeakChecks.baseline();
            long rssPerConnection = (open.rssBytes - before.rssBytes) / CONNECTIONS;
            double fdsPerConnection = (open.openFds - before.openFds) / (double) CONNECTIONS;
            System.out.println("many connections: " + CONNECTIONS + " connected in " + connectedMillis + " ms, "
                    + ROUNDS + " echo rounds done after " + exchangedMillis + " ms; idle: RSS "
                    + ((open.rssBytes - before.rssBytes) >> 20) + " MiB more = " + (rssPerConnection >> 10)
                    + " KiB per connection (both ends), " + fdsPerConnection + " fds per connection (both ends)");

            for (Channel ch : channels) {
                ch.close();
            }
            for (Channel ch : channels) {
                assertTrue(ch.closeFuture().await(30, TimeUnit.SECONDS), "close did not complete");
            }
            // One descriptor of slack: a leak per connection would be a thousand. The RSS is not compared:
            // malloc keeps the freed slot memory of a thousand connections for reuse.
            LeakChecks.assertReturnedTo(before, 1, 16L << 20, Long.MAX_VALUE / 2, "after closing " + CONNECTIONS
                    + " connections");
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
        }
    }

    /** Sends {@value #ROUNDS} messages one after the other, each after the previous one's echo. */
    @ChannelHandler.Sharable
    private static final class Client extends ChannelInboundHandlerAdapter {
        private final CountDownLatch allEchoed;
        private final AtomicInteger failures;

        Client(CountDownLatch allEchoed, AtomicInteger failures) {
            this.allEchoed = allEchoed;
            this.failures = failures;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.channel().attr(ECHOED).set(0);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[MESSAGE]));
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            int echoed = ctx.channel().attr(ECHOED).get() + ((ByteBuf) msg).readableBytes();
            ReferenceCountUtil.release(msg);
            ctx.channel().attr(ECHOED).set(echoed);
            if (echoed == ROUNDS * MESSAGE) {
                allEchoed.countDown();
            } else if (echoed % MESSAGE == 0) {
                ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[MESSAGE]));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            failures.incrementAndGet();
            ctx.close();
        }
    }
}
