/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.support.NettyTransport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The server process. Prints {@code PORT n} once it listens on 127.0.0.1, answers each
 * {@code CPU} line on its standard input with {@code CPU <process CPU nanoseconds>}, and exits
 * when its standard input closes (or, as a safety net, after a maximum lifetime).
 *
 * <p>Each connection starts with one mode byte: {@code E} echoes every later byte back;
 * {@code S} is a sink that reads phases of an 8-byte big-endian byte count followed by that many
 * bytes, and answers each completed phase with one byte.
 */
final class BenchServer {
    private BenchServer() {
    }

    static void main(NettyTransport transport, int threads, long maxLifetimeSeconds) throws Exception {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(maxLifetimeSeconds));
                System.err.println("bench server: maximum lifetime reached, exiting");
                Runtime.getRuntime().halt(3);
            } catch (InterruptedException ignored) {
                // exit normally
            }
        }, "bench-server-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        EventLoopGroup group = transport.newEventLoopGroup(threads);
        try {
            Channel server = new ServerBootstrap().group(group).channel(transport.serverSocketChannel())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new ServerHandler());
                        }
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            System.out.println("PORT " + ((InetSocketAddress) server.localAddress()).getPort());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if ("CPU".equals(line.trim())) {
                    System.out.println("CPU " + processCpuNanos());
                    System.out.flush();
                }
            }
            server.close().await(5, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        }
        System.exit(0);
    }

    /** CPU time of this whole process (all threads), in nanoseconds; -1 if the JVM cannot tell. */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos()).orElse(-1L);
    }

    private static final class ServerHandler extends ChannelInboundHandlerAdapter {
        private static final int MODE = 0;
        private static final int ECHO = 1;
        private static final int HEADER = 2;
        private static final int BODY = 3;

        private int state = MODE;
        private final ByteBuf header = Unpooled.buffer(8, 8);
        private long remaining;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                while (buf.isReadable()) {
                    switch (state) {
                        case MODE:
                            byte mode = buf.readByte();
                            state = mode == 'E' ? ECHO : HEADER;
                            break;
                        case ECHO:
                            ctx.write(buf.retainedSlice());
                            buf.skipBytes(buf.readableBytes());
                            break;
                        case HEADER:
                            int n = Math.min(8 - header.readableBytes(), buf.readableBytes());
                            header.writeBytes(buf, n);
                            if (header.readableBytes() == 8) {
                                remaining = header.readLong();
                                header.clear();
                                state = BODY;
                                if (remaining == 0) {
                                    phaseDone(ctx);
                                }
                            }
                            break;
                        default:
                            int skip = (int) Math.min(remaining, buf.readableBytes());
                            buf.skipBytes(skip);
                            remaining -= skip;
                            if (remaining == 0) {
                                phaseDone(ctx);
                            }
                            break;
                    }
                }
            } finally {
                buf.release();
            }
        }

        private void phaseDone(ChannelHandlerContext ctx) {
            state = HEADER;
            ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('A'));
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            System.err.println("bench server: " + cause);
            ctx.close();
        }
    }
}
