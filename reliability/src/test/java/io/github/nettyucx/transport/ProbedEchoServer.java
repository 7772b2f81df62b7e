/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A UCX echo server in a child JVM (so that a peer that crashes it cannot take the test JVM down), with one
 * well-behaved UCX connection from this JVM that must keep working whatever other peers do to the server.
 */
final class ProbedEchoServer implements AutoCloseable {
    private final ChildJvm child;
    private final InetSocketAddress address;
    private final Channel healthy;
    private final BlockingQueue<String> echoes = new LinkedBlockingQueue<>();
    private int probes;

    ProbedEchoServer(EventLoopGroup group) throws Exception {
        child = ChildJvm.builder(ReliabilityPeer.class).name("echo-server").args("echo-server", "127.0.0.1").start();
        address = new InetSocketAddress("127.0.0.1", Integer.parseInt(child.awaitValue(ReliabilityPeer.PORT)));
        healthy = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new SimpleChannelInboundHandler<ByteBuf>() {
                    private final StringBuilder text = new StringBuilder();

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        ctx.close(); // the server went away; assertStillServing reports it
                    }

                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                        text.append(msg.toString(StandardCharsets.US_ASCII));
                        int end;
                        while ((end = text.indexOf("\n")) >= 0) {
                            echoes.add(text.substring(0, end));
                            text.delete(0, end + 1);
                        }
                    }
                })
                .connect(address).sync().channel();
        assertStillServing();
    }

    InetSocketAddress address() {
        return address;
    }

    ChildJvm child() {
        return child;
    }

    /** The server process is alive and the healthy connection still echoes, byte for byte. */
    void assertStillServing() throws Exception {
        String probe = "probe " + (++probes) + " " + System.nanoTime();
        healthy.writeAndFlush(Unpooled.copiedBuffer(probe + "\n", StandardCharsets.US_ASCII))
                .await(10, TimeUnit.SECONDS);
        String echo = echoes.poll(10, TimeUnit.SECONDS);
        assertTrue(child.isAlive(), "the server process died; output:\n" + child.output());
        assertTrue(healthy.isActive(), "the healthy connection was closed; server output:\n" + child.output());
        assertNotNull(echo, "no echo on the healthy connection; server output:\n" + child.output());
        assertEquals(probe, echo, "the healthy connection's stream was corrupted");
    }

    /** Native connections the server process holds (the healthy one counts). */
    long nativeConnections() throws IOException, InterruptedException {
        child.send("CONNECTIONS");
        return Long.parseLong(child.awaitValue(ReliabilityPeer.CONNECTIONS));
    }

    /** Waits until the server holds only the healthy connection's native state; fails otherwise. */
    void assertOnlyHealthyConnectionLeft(String after) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        long count;
        while ((count = nativeConnections()) != 1 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(1, count, "native connections in the server " + after);
    }

    /** The server's resident memory. */
    long rssBytes() throws IOException, InterruptedException {
        child.send("RSS");
        return Long.parseLong(child.awaitValue(ReliabilityPeer.RSS));
    }

    @Override
    public void close() throws Exception {
        healthy.close().sync();
        child.close();
    }
}
