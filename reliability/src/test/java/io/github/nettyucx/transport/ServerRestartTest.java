/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server process is killed and started again on the same port, twice, while clients connect, exchange a
 * message and close in a loop: while it is down their attempts must fail quickly (no hang), and once it is
 * back they must succeed again; nothing may be left behind in the clients' process.
 */
class ServerRestartTest {
    private static final int CLIENT_THREADS = 2;
    private static final long ATTEMPT_SECONDS = 10;
    private static volatile boolean stop;

    @Test
    @Timeout(180)
    void clientsReconnectToARestartedServer() throws Exception {
        TestTransport.UCX.assumeAvailable();
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        EventLoopGroup group = TestTransport.UCX.newGroup(1);
        LeakChecks.warmUp(group);
        ResourceSnapshot before = LeakChecks.baseline();
        AtomicLong successes = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        Map<String, Long> failureKinds = new ConcurrentHashMap<>();
        AtomicReference<String> hang = new AtomicReference<>();
        List<Thread> clients = new ArrayList<>();
        stop = false;
        try {
            for (int i = 0; i < CLIENT_THREADS; i++) {
                Thread t = new Thread(() -> loop(group, address, successes, failures, failureKinds, hang),
                        "reconnecting-client-" + i);
                t.start();
                clients.add(t);
            }
            for (int generation = 1; generation <= 3; generation++) {
                try (ChildJvm server = ChildJvm.builder(ReliabilityPeer.class).name("server-" + generation)
                        .args("echo-server", "127.0.0.1:" + port).start()) {
                    server.awaitLine(ReliabilityPeer.PORT);
                    long atStart = successes.get();
                    assertTrue(ResourceSnapshot.await(() -> successes.get() >= atStart + 20, 30),
                            "clients did not get through to server generation " + generation + "; failures: "
                                    + failureKinds);
                    Thread.sleep(1000);
                    System.out.println("server generation " + generation + ": " + (successes.get() - atStart)
                            + " exchanges; failures so far " + failures.get() + " " + failureKinds);
                    server.kill();
                }
                Thread.sleep(500); // down for a moment: attempts fail
            }
        } finally {
            stop = true;
            for (Thread t : clients) {
                t.join(TimeUnit.SECONDS.toMillis(ATTEMPT_SECONDS + 5));
            }
        }
        assertNull(hang.get(), "a client attempt hung");
        assertTrue(failures.get() > 0, "no attempt failed although the server was down three times");
        System.out.println("server restarts: " + successes.get() + " exchanges, " + failures.get()
                + " failed attempts: " + failureKinds);
        // About a thousand attempts: the RSS bound is a leak bound (a leak of the 1 MiB of slots per attempt
        // would be a gigabyte), while malloc keeps some of what the attempts freed.
        LeakChecks.assertReturnedTo(before, 8L << 20, 256L << 20, "after the server restarts");
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
    }

    private static void loop(EventLoopGroup group, InetSocketAddress address, AtomicLong successes,
                             AtomicLong failures, Map<String, Long> failureKinds, AtomicReference<String> hang) {
        while (!stop) {
            CompletableFuture<Void> echoed = new CompletableFuture<>();
            ChannelFuture connect = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2_000)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            int n = ((ByteBuf) msg).readableBytes();
                            ReferenceCountUtil.release(msg);
                            if (n > 0) {
                                echoed.complete(null);
                            }
                        }

                        @Override
                        public void channelInactive(ChannelHandlerContext ctx) {
                            echoed.completeExceptionally(new java.io.IOException("closed before the echo"));
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            echoed.completeExceptionally(cause);
                            ctx.close();
                        }
                    })
                    .connect(address);
            try {
                if (!connect.await(ATTEMPT_SECONDS, TimeUnit.SECONDS)) {
                    hang.compareAndSet(null, "connect pending for " + ATTEMPT_SECONDS + " s");
                    return;
                }
                if (!connect.isSuccess()) {
                    throw connect.cause();
                }
                Channel ch = connect.channel();
                ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[100]));
                echoed.get(ATTEMPT_SECONDS, TimeUnit.SECONDS);
                ch.close().await(ATTEMPT_SECONDS, TimeUnit.SECONDS);
                successes.incrementAndGet();
            } catch (java.util.concurrent.TimeoutException e) {
                hang.compareAndSet(null, "no echo and no error for " + ATTEMPT_SECONDS + " s");
                return;
            } catch (InterruptedException e) {
                return;
            } catch (Throwable t) {
                Throwable cause = t instanceof java.util.concurrent.ExecutionException ? t.getCause() : t;
                failures.incrementAndGet();
                failureKinds.merge(cause.getClass().getSimpleName(), 1L, Long::sum);
                connect.channel().close();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
