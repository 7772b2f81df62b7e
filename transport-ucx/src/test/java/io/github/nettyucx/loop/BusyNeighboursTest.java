/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.transport.Echo;
import io.github.nettyucx.transport.TestTransport;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Loops that wait adaptively (the default) stop spinning while busy threads take every core, and a loop told to
 * spin for a fixed time keeps spinning; round trips are delivered throughout. The busy threads are this JVM's own,
 * twice as many as there are processors, which to the scheduler is the same as other processes. Whether that
 * makes round trips faster is the benchmarks' business (docs/benchmarks/shared-machine).
 */
class BusyNeighboursTest {
    /** The most round trips a loop gets to notice the busy threads. */
    private static final int MAX_ROUND_TRIPS = 20_000;
    /** The round trips a fixed spin makes beside them (each of its spins meets them). */
    private static final int FIXED_SPIN_ROUND_TRIPS = 500;
    private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(20);

    @ParameterizedTest
    @EnumSource(value = WaitStrategy.class, names = {"ADAPTIVE", "SPIN_THEN_SLEEP"})
    @Timeout(120)
    void adaptiveLoopsStopSpinningBesideBusyThreads(WaitStrategy strategy) throws Exception {
        TestTransport.requireUcx();
        UcxIoHandlerConfig config = new UcxIoHandlerConfig().waitStrategy(strategy, 50, TimeUnit.MICROSECONDS)
                .startupSpinEvents(0);
        EventLoopGroup serverGroup = new UcxEventLoopGroup(1, config);
        EventLoopGroup clientGroup = new UcxEventLoopGroup(1, config);
        BusyThreads busy = new BusyThreads(2 * Runtime.getRuntime().availableProcessors());
        try {
            EventLoop serverLoop = serverGroup.next();
            EventLoop clientLoop = clientGroup.next();
            UcxIoHandler serverHandler = TestTransport.handlerOf(serverLoop);
            UcxIoHandler clientHandler = TestTransport.handlerOf(clientLoop);
            Channel server = new ServerBootstrap().group(serverGroup).channel(UcxServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new Echo());
                        }
                    }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            BlockingQueue<ByteBuf> replies = new LinkedBlockingQueue<>();
            Channel client = new Bootstrap().group(clientGroup).channel(UcxSocketChannel.class)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            replies.add((ByteBuf) msg);
                        }
                    }).connect(server.localAddress()).sync().channel();
            try {
                busy.start();
                long deadline = System.nanoTime() + MAX_NANOS;
                int roundTrips = 0;
                long holds = 0;
                int most = strategy == WaitStrategy.ADAPTIVE ? MAX_ROUND_TRIPS : FIXED_SPIN_ROUND_TRIPS;
                while (roundTrips < most && System.nanoTime() - deadline < 0 && holds == 0) {
                    roundTrip(client, replies, roundTrips++);
                    if (roundTrips % 100 == 0) {
                        holds = holdsOf(clientLoop, clientHandler) + holdsOf(serverLoop, serverHandler);
                    }
                }
                if (strategy == WaitStrategy.ADAPTIVE) {
                    assertTrue(holds > 0, "neither loop stopped spinning in " + roundTrips
                            + " round trips beside " + busy.count + " busy threads");
                } else {
                    assertEquals(0, holdsOf(clientLoop, clientHandler) + holdsOf(serverLoop, serverHandler),
                            "a fixed spin stopped for busy threads");
                }
                busy.stop();
                for (int i = 0; i < 1000; i++) {
                    roundTrip(client, replies, i);
                }
            } finally {
                busy.stop();
                client.close().sync();
                server.close().sync();
            }
        } finally {
            busy.stop();
            clientGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            serverGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static long holdsOf(EventLoop loop, UcxIoHandler handler) throws Exception {
        return loop.submit(() -> handler.idlePolicy().cpusTakenPeriods()).get(10, TimeUnit.SECONDS);
    }

    /** Sends 8 bytes from the test thread (an application thread) and checks that they come back. */
    private static void roundTrip(Channel client, BlockingQueue<ByteBuf> replies, long value) throws Exception {
        client.writeAndFlush(Unpooled.buffer(8).writeLong(value));
        ByteBuf reply = replies.poll(10, TimeUnit.SECONDS);
        assertNotNull(reply, "no reply within 10 s");
        try {
            while (reply.readableBytes() < 8) {
                ByteBuf more = replies.poll(10, TimeUnit.SECONDS);
                assertNotNull(more, "no rest of the reply within 10 s");
                ByteBuf whole = Unpooled.buffer(16).writeBytes(reply).writeBytes(more);
                reply.release();
                more.release();
                reply = whole;
            }
            assertEquals(8, reply.readableBytes());
            assertEquals(value, reply.readLong());
        } finally {
            reply.release();
        }
    }

    /** Threads that keep a core busy each until stopped. */
    private static final class BusyThreads {
        final int count;
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running;

        BusyThreads(int count) {
            this.count = count;
        }

        void start() {
            running = true;
            for (int i = 0; i < count; i++) {
                Thread t = new Thread(() -> {
                    long x = 0;
                    while (running) {
                        x = x * 31 + 7;
                    }
                    if (x == 42) {
                        System.out.print("");
                    }
                }, "busy-neighbour-" + i);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
        }

        void stop() throws InterruptedException {
            running = false;
            for (Thread t : threads) {
                t.join(10_000);
            }
            threads.clear();
        }
    }
}
