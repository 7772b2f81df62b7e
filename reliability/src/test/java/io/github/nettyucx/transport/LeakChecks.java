/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;

import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks that what connections held has gone back to a baseline: file descriptors and native connections
 * exactly, the channel allocator's used memory and the RSS within the given slack (pools and malloc keep
 * memory for reuse), and no buffer reported by Netty's leak detector.
 */
final class LeakChecks {
    /** Native connections are freed a little after their channel closed, once UCX released them. */
    private static final long RELEASE_SECONDS = 15;

    private LeakChecks() {
    }

    /**
     * One complete connection to a child process and its death, so that what the first one creates once per
     * process (classes loaded from jars hold descriptors, UCX creates its transports lazily) is in the baseline.
     */
    static void warmUp(EventLoopGroup group) throws Exception {
        try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "echo-server", "127.0.0.1")) {
            int port = Integer.parseInt(peer.awaitValue(ReliabilityPeer.PORT));
            CountDownLatch echoed = new CountDownLatch(1);
            Channel ch = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ReferenceCountUtil.release(msg);
                            echoed.countDown();
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            ctx.close();
                        }
                    })
                    .connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
            ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[100])).sync();
            assertTrue(echoed.await(10, TimeUnit.SECONDS), "warm-up: no echo");
            peer.kill();
            ch.closeFuture().await(10, TimeUnit.SECONDS);
        }
        ResourceSnapshot.await(() -> UcxNative.connectionsAllocated() == 0, 10);
    }

    static ResourceSnapshot baseline() {
        return ResourceSnapshot.take(ByteBufAllocator.DEFAULT);
    }

    /** Waits for native connections and descriptors to return to {@code before}, then compares everything. */
    static ResourceSnapshot assertReturnedTo(ResourceSnapshot before, long allocatorSlackBytes, long rssSlackBytes,
                                             String what) throws InterruptedException {
        return assertReturnedTo(before, 0, allocatorSlackBytes, rssSlackBytes, what);
    }

    /** As above, allowing {@code fdSlack} more descriptors (for runs of thousands of connections). */
    static ResourceSnapshot assertReturnedTo(ResourceSnapshot before, int fdSlack, long allocatorSlackBytes,
                                             long rssSlackBytes, String what) throws InterruptedException {
        ResourceSnapshot.await(() -> UcxNative.connectionsAllocated() == before.nativeConnections
                && ResourceSnapshot.openFds() <= before.openFds + fdSlack, RELEASE_SECONDS);
        LogRecorder.provokeLeakReports();
        ResourceSnapshot snapshot = ResourceSnapshot.take(ByteBufAllocator.DEFAULT);
        // A loop's idle policy reads /proc/loadavg now and then: a snapshot can catch that descriptor open for the
        // microseconds of the read. One left open stays in every snapshot.
        for (int i = 0; i < 10 && snapshot.openFds > before.openFds + fdSlack; i++) {
            Thread.sleep(10);
            snapshot = ResourceSnapshot.take(ByteBufAllocator.DEFAULT);
        }
        ResourceSnapshot after = snapshot;
        String report = what + ": before {" + before + "}, after {" + after + "}";
        System.out.println(report);
        assertEquals(before.nativeConnections, after.nativeConnections, "native connections left: " + report);
        assertTrue(after.openFds <= before.openFds + fdSlack, () -> "file descriptors left open: " + report
                + "; opened since: " + after.fdsOpenedSince(before));
        assertTrue(after.allocatorUsedBytes <= before.allocatorUsedBytes + allocatorSlackBytes,
                "allocator memory still in use: " + report);
        assertTrue(after.rssBytes <= before.rssBytes + rssSlackBytes, "RSS grew by more than "
                + (rssSlackBytes >> 20) + " MiB: " + report);
        assertTrue(LogRecorder.install().leaks().isEmpty(), "leaked buffers: " + LogRecorder.install().leaks());
        return after;
    }
}
