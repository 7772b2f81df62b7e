/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.support.NettyTransport;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import org.HdrHistogram.Histogram;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The application {@link FirstSecondBenchmark} starts in its JVMs: an echo server, and a client that keeps one
 * message in flight, times each round trip from the first, and prints in microseconds the median of its first
 * {@link #FIRST} round trips, the time they took in all (ms), and then the median of each window
 * ({@code WINDOWS first firstMillis m1 m2 ...}).
 */
final class FirstSecondApp {
    private static final int MAX_FRAME = 1 << 20;
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** The round trips the "from the first second" counts: a fresh JVM pair's first ten thousand. */
    static final int FIRST = 10_000;

    private FirstSecondApp() {
    }

    static void serve(NettyTransport transport) throws InterruptedException {
        EventLoopGroup boss = transport.newEventLoopGroup(1, "first-second-boss");
        EventLoopGroup workers = transport.newEventLoopGroup(1, "first-second-worker");
        Channel server = new ServerBootstrap().group(boss, workers).channel(transport.serverSocketChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(decoder(), new LengthFieldPrepender(4), new Echo());
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        System.out.println("PORT " + ((InetSocketAddress) server.localAddress()).getPort());
        System.out.flush();
        server.closeFuture().sync();
    }

    static void client(NettyTransport transport, int port, int windows, int window, int size) throws Exception {
        EventLoopGroup group = transport.newEventLoopGroup(1, "first-second-client");
        Timer timer = new Timer(windows, window, size);
        Channel channel = new Bootstrap().group(group).channel(transport.socketChannel())
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(decoder(), new LengthFieldPrepender(4), timer);
                    }
                }).connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)).sync().channel();
        double[] medians = timer.done.get(5, TimeUnit.MINUTES);
        StringBuilder line = new StringBuilder("WINDOWS ").append(String.format("%.2f", timer.firstMedian()))
                .append(' ').append(String.format("%.2f", timer.firstMillis()));
        for (double median : medians) {
            line.append(' ').append(String.format("%.2f", median));
        }
        System.out.println(line);
        System.out.flush();
        channel.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        System.exit(0);
    }

    private static ChannelHandler decoder() {
        return new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4);
    }

    @ChannelHandler.Sharable
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }

    /** Sends the first message when the connection is up, and each next one when the last came back. */
    private static final class Timer extends ChannelInboundHandlerAdapter {
        final CompletableFuture<double[]> done = new CompletableFuture<>();
        private final Histogram histogram = new Histogram(HIGHEST_NANOS, 3);
        private final Histogram first = new Histogram(HIGHEST_NANOS, 3);
        private final double[] medians;
        private final int window;
        private final int size;
        private int window0;
        private int inWindow;
        private long sentAt;
        /** The first round trips' time in all: the median hides the stalls of a JVM's first seconds. */
        private long firstNanos;

        Timer(int windows, int window, int size) {
            this.medians = new double[windows];
            this.window = window;
            this.size = size;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            send(ctx, Unpooled.wrappedBuffer(new byte[size]));
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            long nanos = Math.min(System.nanoTime() - sentAt, HIGHEST_NANOS);
            histogram.recordValue(nanos);
            if (first.getTotalCount() < FIRST) {
                first.recordValue(nanos);
                firstNanos += nanos;
            }
            if (++inWindow == window) {
                medians[window0++] = histogram.getValueAtPercentile(50) / 1000.0;
                histogram.reset();
                inWindow = 0;
                if (window0 == medians.length) {
                    ((ByteBuf) msg).release();
                    done.complete(medians);
                    return;
                }
            }
            send(ctx, msg);
        }

        double firstMedian() {
            return first.getValueAtPercentile(50) / 1000.0;
        }

        double firstMillis() {
            return firstNanos / 1e6;
        }

        private void send(ChannelHandlerContext ctx, Object msg) {
            sentAt = System.nanoTime();
            ctx.writeAndFlush(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
            ctx.close();
        }
    }
}
