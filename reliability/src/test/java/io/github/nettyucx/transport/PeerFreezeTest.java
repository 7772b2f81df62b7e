/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The peer process is frozen (SIGSTOP) while this JVM writes to it: the writer must stop at the flow-control
 * limit (the channel turns unwritable, nothing piles up), every byte must arrive intact once the peer runs
 * again (SIGCONT), and with an idle timeout configured the frozen peer must be detected and closed.
 */
class PeerFreezeTest extends AbstractWarmGroupTest {
    private static final int CHUNK = 64 * 1024;
    private static final int HIGH_WATER_MARK = 1 << 20;
    private static final long SEED = 11;
    @Test
    @Timeout(120)
    void writesStopAtTheFlowControlLimitAndResumeIntact() throws Exception {
        long total = LongSuite.choose(64L << 20, 1L << 30);
        ResourceSnapshot before = LeakChecks.baseline();
        try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "sink-server", "127.0.0.1", Long.toString(SEED))) {
            int port = Integer.parseInt(peer.awaitValue(ReliabilityPeer.PORT));
            Pump pump = new Pump(total);
            Channel ch = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(HIGH_WATER_MARK / 2,
                            HIGH_WATER_MARK))
                    .handler(pump).connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
            assertTrue(ResourceSnapshot.await(() -> pump.completed.get() >= (8 << 20), 30), "data did not flow");

            peer.stop();
            Thread.sleep(1000);
            long completedFrozen = pump.completed.get();
            long rssFrozen = ResourceSnapshot.rssBytes();
            Thread.sleep(3000);
            long completedLater = pump.completed.get();
            long rssLater = ResourceSnapshot.rssBytes();
            long pending = pendingBytes(ch);
            System.out.println("frozen peer: " + (completedLater - completedFrozen) + " bytes completed in 3 s of "
                    + "freeze, " + pending + " bytes queued, writable=" + ch.isWritable() + ", RSS "
                    + ((rssLater - rssFrozen) >> 10) + " KiB more");
            assertFalse(ch.isWritable(), "channel still writable against a frozen peer");
            assertTrue(completedLater - completedFrozen <= 2L * 8 * CHUNK,
                    "writes kept completing while the peer was frozen: " + (completedLater - completedFrozen));
            assertTrue(pending <= HIGH_WATER_MARK + CHUNK, "queued beyond the high water mark: " + pending);
            assertTrue(rssLater - rssFrozen < (32L << 20), "RSS grew while writing to a frozen peer");

            peer.resume();
            assertTrue(pump.done.await(90, TimeUnit.SECONDS), "the stream did not finish after SIGCONT: "
                    + pump.completed + " of " + total + " bytes");
            String received = peer.awaitValue(ReliabilityPeer.RECEIVED);
            assertEquals(total + " " + pump.stream.crc() + " intact", received, "the peer received something else");
            ch.close().sync();
        }
        LeakChecks.assertReturnedTo(before, 8L << 20, 64L << 20, "after the frozen-peer stream");
    }

    @Test
    @Timeout(60)
    void idleTimeoutDetectsAFrozenPeer() throws Exception {
        ResourceSnapshot before = LeakChecks.baseline();
        try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "echo-server", "127.0.0.1")) {
            int port = Integer.parseInt(peer.awaitValue(ReliabilityPeer.PORT));
            CountDownLatch idle = new CountDownLatch(1);
            AtomicLong echoed = new AtomicLong();
            Channel ch = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .handler(new io.netty.channel.ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel c) {
                            c.pipeline().addLast(new IdleStateHandler(1, 0, 0, TimeUnit.SECONDS),
                                    new ChannelInboundHandlerAdapter() {
                                        @Override
                                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                            echoed.addAndGet(((ByteBuf) msg).readableBytes());
                                            ReferenceCountUtil.release(msg);
                                        }

                                        @Override
                                        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                            if (evt instanceof IdleStateEvent) {
                                                idle.countDown();
                                                ctx.close();
                                            }
                                        }
                                    });
                        }
                    }).connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
            // A request every 200 ms, well inside the 1 s idle timeout while the peer answers.
            ch.eventLoop().scheduleAtFixedRate(() -> ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[64])),
                    0, 200, TimeUnit.MILLISECONDS);
            Thread.sleep(1500);
            assertEquals(1, idle.getCount(), "idle timeout fired while the peer answered");
            assertTrue(echoed.get() > 0, "no echo");

            peer.stop();
            long frozenAt = System.nanoTime();
            assertTrue(idle.await(5, TimeUnit.SECONDS), "the idle timeout did not fire for a frozen peer");
            assertTrue(ch.closeFuture().await(2, TimeUnit.SECONDS), "channel not closed after the idle timeout");
            System.out.println("frozen peer detected by a 1 s reader idle timeout after "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - frozenAt) + " ms");
            peer.resume();
        }
        LeakChecks.assertReturnedTo(before, 8L << 20, 64L << 20, "after closing a frozen peer");
    }

    private static long pendingBytes(Channel ch) throws Exception {
        return ch.eventLoop().submit(() -> {
            ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
            return out == null ? 0L : out.totalPendingWriteBytes();
        }).get();
    }

    /** Writes the {@link DataStream} while the channel is writable, then shuts its output down. */
    private static final class Pump extends ChannelInboundHandlerAdapter {
        final DataStream stream = new DataStream(SEED);
        final AtomicLong completed = new AtomicLong();
        final CountDownLatch done = new CountDownLatch(1);
        private final long total;

        Pump(long total) {
            this.total = total;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            pump(ctx);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            pump(ctx);
        }

        private void pump(ChannelHandlerContext ctx) {
            while (ctx.channel().isWritable() && stream.position() < total) {
                int n = (int) Math.min(CHUNK, total - stream.position());
                ByteBuf buf = ctx.alloc().directBuffer(n);
                stream.writeTo(buf, n);
                boolean last = stream.position() == total;
                ctx.write(buf).addListener(f -> {
                    if (f.isSuccess()) {
                        completed.addAndGet(n);
                    }
                    if (last) {
                        // Only now: shutdownOutput() fails the writes still queued, as on NIO.
                        ((DuplexChannel) ctx.channel()).shutdownOutput().addListener(g -> done.countDown());
                    }
                });
            }
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            cause.printStackTrace();
            ctx.close();
        }
    }
}
