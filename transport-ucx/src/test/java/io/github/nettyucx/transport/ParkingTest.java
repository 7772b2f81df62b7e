/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.loop.UcxReceiveWindow;
import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Idle connections park ({@link UcxReceiveWindow}): after {@link UcxReceiveWindow#PARK_IDLE_NANOS} without a
 * message both ends give their receive buffers back to the pool and their loops stop waking to sweep them; what
 * the peer sends afterwards, a single byte or a burst larger than the window, arrives intact and in order, without
 * a stray; the burst's buffers, sent back in place, are all given back once their sends are done. Over UCX's tag
 * path only; the TCP data path never parks.
 */
class ParkingTest {
    private static final int WINDOW = UcxSocketOptions.DEFAULT_RECV_WINDOW;
    private static final int BURST_MESSAGES = 4 * WINDOW;
    private static final int BURST_MESSAGE_BYTES = 60 * 1024;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void idleConnectionsHoldNoReceiveBuffersAndWakeIntact() throws Exception {
        TestTransport.UCX.assumeAvailable();
        assumeTrue(UcxReceiveWindow.PARK_IDLE_NANOS > 0, "parking is off");
        assumeFalse("always".equals(
                System.getProperty("io.github.nettyucx.tcpDataPath")), "the TCP data path has no receive window");
        EventLoopGroup group = TestTransport.UCX.newGroup(2);
        try {
            Echo echo = new Echo();
            BlockingQueue<Channel> children = new LinkedBlockingQueue<>();
            Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            children.add(ch);
                            ch.pipeline().addLast(echo);
                        }
                    }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync()
                    .channel();
            Checker checker = new Checker();
            Channel client = new Bootstrap().group(group).channel(UcxSocketChannel.class).handler(checker)
                    .connect(server.localAddress()).sync().channel();
            long strays = Ucx.strayMessagesDropped();

            checker.send(client, 1);
            checker.awaitEchoed();
            long posted = receiveMemory();
            long slotBytes = UcxSocketOptions.DEFAULT_RECV_UNIT + UcxNative.HEADER_BYTES;
            assertTrue(posted >= 2 * WINDOW * slotBytes, "both ends post their window: " + posted + " bytes");

            assertTrue(Await.until(() -> receiveMemory() <= posted - 2 * WINDOW * slotBytes,
                    3 * TimeUnit.NANOSECONDS.toMillis(UcxReceiveWindow.PARK_IDLE_NANOS) + 2_000,
                    TimeUnit.MILLISECONDS), "idle ends kept their receive buffers: " + receiveMemory() + " bytes, "
                    + posted + " while busy");
            // With every connection parked there is nothing to sweep: neither end's loop waits for a sweep, so it
            // sleeps until something happens instead of waking every half PARK_IDLE_NANOS.
            for (Channel end : List.of(client, children.take())) {
                long sweepIn = end.eventLoop().submit(() -> UcxIoHandler.of(((AbstractUcxChannel) end)
                        .registration()).worker().nanosToSweep(System.nanoTime())).get(5, TimeUnit.SECONDS);
                assertEquals(-1, sweepIn, end + ": its loop still sweeps, with every connection parked");
            }

            checker.send(client, 1);
            checker.awaitEchoed();
            assertTrue(Await.until(() -> receiveMemory() <= posted - 2 * WINDOW * slotBytes,
                    3 * TimeUnit.NANOSECONDS.toMillis(UcxReceiveWindow.PARK_IDLE_NANOS) + 2_000,
                    TimeUnit.MILLISECONDS), "the ends did not park again: " + receiveMemory() + " bytes");
            for (int i = 0; i < BURST_MESSAGES; i++) {
                checker.send(client, BURST_MESSAGE_BYTES);
            }
            checker.awaitEchoed();
            // The burst's messages went up in their receive buffers and back out from them: once their sends are
            // done and both ends parked again, none of those buffers may still be held.
            assertTrue(Await.until(() -> receiveMemory() <= posted - 2 * WINDOW * slotBytes,
                    3 * TimeUnit.NANOSECONDS.toMillis(UcxReceiveWindow.PARK_IDLE_NANOS) + 2_000,
                    TimeUnit.MILLISECONDS), "receive buffers held after the burst: " + receiveMemory() + " bytes");

            assertTrue(checker.exceptions.isEmpty(), () -> "client: " + checker.exceptions);
            assertTrue(echo.exceptions.isEmpty(), () -> "server: " + echo.exceptions);
            assertEquals(strays, Ucx.strayMessagesDropped(), "messages of parked connections were dropped");
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }

    private static long receiveMemory() {
        return UcxByteBufAllocator.receiveBuffersMetric().activeDirectMemory();
    }

    /** Sends a checked stream and waits until all of it came back. */
    private static final class Checker extends ChannelInboundHandlerAdapter {
        final Queue<Throwable> exceptions = new ConcurrentLinkedQueue<>();
        private final DataStream sent = new DataStream(11);
        private final DataStream expected = new DataStream(11);
        private volatile long echoed;

        void send(Channel channel, int bytes) {
            ByteBuf data = channel.alloc().directBuffer(bytes);
            sent.writeTo(data, bytes);
            channel.writeAndFlush(data);
        }

        void awaitEchoed() throws InterruptedException {
            assertTrue(Await.until(() -> echoed == sent.position(), 20, TimeUnit.SECONDS),
                    () -> "echoed " + echoed + " of " + sent.position() + " bytes; " + exceptions);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                String mismatch = expected.check(buf);
                if (mismatch != null) {
                    exceptions.add(new AssertionError(mismatch));
                }
                echoed = expected.position();
            } finally {
                ReferenceCountUtil.release(buf);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            exceptions.add(cause);
            ctx.close();
        }
    }
}
