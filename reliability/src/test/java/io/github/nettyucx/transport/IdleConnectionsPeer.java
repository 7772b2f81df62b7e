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
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One end of {@link IdleConnectionMemoryTest}, in a process of its own so that each end's memory is its own. It
 * prints nothing per connection, so that thousands of them cost the test no output.
 *
 * <pre>
 *   server HOST        an echo server on one event loop                     prints PORT n
 *   client HOST PORT   one event loop; connects when told (OPEN)             prints READY
 * stdin commands:
 *   OPEN n     (client) opens n more connections, each echoes 1 KiB once   prints OPENED total ms failures
 *   CLOSE      (client) closes them all and waits for each close            prints CLOSED ms
 *   MEMORY     collects garbage, then                                   prints MEMORY rss heapUsed fds conns pss
 *   CPU        the process's CPU time so far                                 prints CPU nanos
 * </pre>
 * The transport is {@code -Dpeer.transport} (UCX or EPOLL). The process halts when its standard input ends.
 */
public final class IdleConnectionsPeer {
    static final int MESSAGE_BYTES = 1024;
    /** Connections whose connect is in progress at once: a burst of thousands would overflow the backlog. */
    private static final int CONNECTS_IN_FLIGHT = 256;

    private static final AttributeKey<Integer> ECHOED_BYTES = AttributeKey.valueOf("idleEchoedBytes");
    private static final List<Channel> CHANNELS = new ArrayList<>();
    private static EventLoopGroup group;
    private static Bootstrap client;

    private IdleConnectionsPeer() {
    }

    public static void main(String[] args) throws Exception {
        TestTransport transport = TestTransport.valueOf(System.getProperty("peer.transport", "UCX"));
        group = transport.newGroup(1);
        if (args[0].equals("server")) {
            Channel server = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .childHandler(EchoServerHandler.INSTANCE)
                    .bind(new InetSocketAddress(args[1], 0)).sync().channel();
            print("PORT " + ((InetSocketAddress) server.localAddress()).getPort());
        } else {
            client = new Bootstrap().group(group).channel(transport.clientChannelClass())
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 60_000)
                    .remoteAddress(new InetSocketAddress(args[1], Integer.parseInt(args[2])));
            print("READY");
        }
        commands();
    }

    private static void commands() throws Exception {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] words = line.trim().split("\\s+");
                switch (words[0]) {
                    case "OPEN":
                        open(Integer.parseInt(words[1]));
                        break;
                    case "CLOSE":
                        close();
                        break;
                    case "MEMORY":
                        memory();
                        break;
                    case "CPU":
                        print("CPU " + ((com.sun.management.OperatingSystemMXBean) ManagementFactory
                                .getOperatingSystemMXBean()).getProcessCpuTime());
                        break;
                    default:
                        print("UNKNOWN " + line);
                }
            }
        } finally {
            Runtime.getRuntime().halt(3);
        }
    }

    /** Opens {@code count} connections, at most {@link #CONNECTS_IN_FLIGHT} connecting at a time. */
    private static void open(int count) throws InterruptedException {
        long start = System.nanoTime();
        CountDownLatch echoed = new CountDownLatch(count);
        AtomicInteger failures = new AtomicInteger();
        ChannelHandler handler = new EchoOnce(echoed, failures);
        List<ChannelFuture> inFlight = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            inFlight.add(client.clone().handler(handler).connect());
            if (inFlight.size() == CONNECTS_IN_FLIGHT || i == count - 1) {
                for (ChannelFuture f : inFlight) {
                    if (!f.await(60, TimeUnit.SECONDS) || !f.isSuccess()) {
                        failures.incrementAndGet();
                        echoed.countDown();
                    } else {
                        CHANNELS.add(f.channel());
                    }
                }
                inFlight.clear();
            }
        }
        if (!echoed.await(120, TimeUnit.SECONDS)) {
            failures.addAndGet((int) echoed.getCount());
        }
        print("OPENED " + CHANNELS.size() + " " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " "
                + failures.get());
    }

    private static void close() throws InterruptedException {
        long start = System.nanoTime();
        for (Channel ch : CHANNELS) {
            ch.close();
        }
        for (Channel ch : CHANNELS) {
            ch.closeFuture().await(30, TimeUnit.SECONDS);
        }
        CHANNELS.clear();
        print("CLOSED " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private static void memory() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        print("MEMORY " + ResourceSnapshot.rssBytes() + " " + heapUsed + " " + ResourceSnapshot.openFds() + " "
                + UcxNative.connectionsAllocated() + " "
                + ResourceSnapshot.statusKiB(Paths.get("/proc/self/smaps_rollup"), "Pss:") * 1024);
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Sends one message and counts the connection down when all of it came back. */
    @ChannelHandler.Sharable
    private static final class EchoOnce extends ChannelInboundHandlerAdapter {
        private final CountDownLatch echoed;
        private final AtomicInteger failures;

        EchoOnce(CountDownLatch echoed, AtomicInteger failures) {
            this.echoed = echoed;
            this.failures = failures;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[MESSAGE_BYTES]));
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Attribute<Integer> echoedBytes = ctx.channel().attr(ECHOED_BYTES);
            Integer before = echoedBytes.get();
            int now = (before == null ? 0 : before) + ((ByteBuf) msg).readableBytes();
            ReferenceCountUtil.release(msg);
            echoedBytes.set(now);
            if (now == MESSAGE_BYTES) {
                echoed.countDown();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            failures.incrementAndGet();
            print("EXCEPTION " + cause);
            ctx.close();
        }
    }
}
