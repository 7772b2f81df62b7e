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
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connect, exchange 1 KiB, close, many times over (1,000 in CI, 10,000 in the long suite): descriptors,
 * native connections, allocator memory and RSS must stay flat, and the time per cycle is reported.
 */
class ChurnTest {
    private static final int WARM_UP = 100;
    private static final int MESSAGE = 1024;

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void connectExchangeCloseCycles() throws Exception {
        TestTransport.UCX.assumeAvailable();
        int cycles = Integer.getInteger("reliability.churnCycles", LongSuite.choose(1_000, 10_000));
        LogRecorder.install().clear();
        EventLoopGroup group = TestTransport.UCX.newGroup(2);
        try {
            Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                    .childHandler(EchoServerHandler.INSTANCE)
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            InetSocketAddress address = (InetSocketAddress) server.localAddress();
            for (int i = 0; i < WARM_UP; i++) {
                cycle(group, address);
            }
            ResourceSnapshot.await(() -> UcxNative.connectionsAllocated() == 0, 15);
            ResourceSnapshot before = LeakChecks.baseline();
            long[] micros = new long[cycles];
            long rssHalfway = 0;
            long start = System.nanoTime();
            for (int i = 0; i < cycles; i++) {
                micros[i] = cycle(group, address);
                if ((i + 1) % Math.max(1, cycles / 8) == 0) {
                    // After a GC: the side channels' direct buffers are freed only when collected.
                    LogRecorder.provokeLeakReports();
                    long rss = ResourceSnapshot.rssBytes();
                    if (i + 1 == cycles / 2) {
                        rssHalfway = rss;
                    }
                    System.out.println("churn: " + (i + 1) + " cycles, " + UcxNative.connectionsAllocated()
                            + " native connections lingering, fds " + ResourceSnapshot.openFds() + ", RSS after GC "
                            + (rss >> 20) + " MiB");
                }
            }
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            Arrays.sort(micros);
            System.out.println("churn: " + cycles + " connect/exchange/close cycles in " + seconds
                    + " s; per cycle p50 " + micros[cycles / 2] + " us, p90 " + micros[cycles * 9 / 10] + " us, p99 "
                    + micros[cycles * 99 / 100] + " us, max " + micros[cycles - 1] + " us");
            // Leak bounds, not timing. The RSS may rise while malloc's arenas fill up; it must have levelled off
            // by the second half of the run (64 MiB over 500 cycles would be 128 KiB a cycle).
            ResourceSnapshot after = LeakChecks.assertReturnedTo(before, 8L << 20, Long.MAX_VALUE / 2,
                    "after " + cycles + " churn cycles");
            System.out.println("churn: RSS " + (before.rssBytes >> 20) + " MiB before, " + (rssHalfway >> 20)
                    + " MiB half-way, " + (after.rssBytes >> 20) + " MiB after");
            assertTrue(after.rssBytes - rssHalfway < (64L << 20), "RSS still growing in the second half: "
                    + (rssHalfway >> 20) + " -> " + (after.rssBytes >> 20) + " MiB");
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }

    /** One connection's life; returns its duration in microseconds. */
    private static long cycle(EventLoopGroup group, InetSocketAddress address) throws Exception {
        long start = System.nanoTime();
        CompletableFuture<Void> echoed = new CompletableFuture<>();
        Channel ch = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new ChannelInboundHandlerAdapter() {
                    private int received;

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        received += ((ByteBuf) msg).readableBytes();
                        ReferenceCountUtil.release(msg);
                        if (received == MESSAGE) {
                            echoed.complete(null);
                        }
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        echoed.completeExceptionally(cause);
                        ctx.close();
                    }
                })
                .connect(address).sync().channel();
        ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[MESSAGE]));
        echoed.get(10, TimeUnit.SECONDS);
        assertTrue(ch.close().await(10, TimeUnit.SECONDS), "close did not complete");
        return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start);
    }
}
