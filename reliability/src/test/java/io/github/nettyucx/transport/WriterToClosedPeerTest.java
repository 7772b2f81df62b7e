/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that does not read (auto-read off) writes to a server that closes the connection after 1 MiB, with
 * the rest of the client's data unread. Over TCP the server's kernel answers with a reset and the client's
 * pending writes fail at once; the client's channel must close the same way over UCX.
 */
class WriterToClosedPeerTest {
    /** A liveness bound: TCP notices within a round trip. */
    private static final long DETECTION_SECONDS = 20;

    /** The reference: what Netty's NIO transport does. */
    @Test
    @Timeout(60)
    void nioWriterNoticesThatThePeerClosed() throws Exception {
        writerNoticesThatThePeerClosed(TestTransport.NIO);
    }

    @Test
    @Timeout(60)
    void ucxWriterNoticesThatThePeerClosed() throws Exception {
        TestTransport.UCX.assumeAvailable();
        writerNoticesThatThePeerClosed(TestTransport.UCX);
    }

    /**
     * The same with a writer that blocks its loop for 2 ms each time it turns writable, and then writes from inside
     * the flush that made it writable: a flush from a loop that has not polled its sockets for a while takes in the
     * side channel's input first, and the peer's close record found there must still fail the writes that wait.
     */
    @Test
    @Timeout(120)
    void ucxWriterThatBlocksItsLoopNoticesThatThePeerClosed() throws Exception {
        TestTransport.UCX.assumeAvailable();
        for (int i = 0; i < 5; i++) {
            writerNoticesThatThePeerClosed(TestTransport.UCX, 2);
        }
    }

    private static void writerNoticesThatThePeerClosed(TestTransport transport) throws Exception {
        writerNoticesThatThePeerClosed(transport, 0);
    }

    private static void writerNoticesThatThePeerClosed(TestTransport transport, long blockMillis) throws Exception {
        EventLoopGroup group = transport.newGroup(1);
        try (ChildJvm peer = ChildJvm.builder(ReliabilityPeer.class).jvmOption("-Dpeer.transport=" + transport.name())
                .args("closing-server", "127.0.0.1", Integer.toString(1 << 20)).start()) {
            int port = Integer.parseInt(peer.awaitValue(ReliabilityPeer.PORT));
            Flood flood = new Flood(blockMillis);
            Channel ch = new Bootstrap().group(group).channel(transport.clientChannelClass())
                    .option(ChannelOption.AUTO_READ, false).handler(flood)
                    .connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
            peer.awaitLine("CLOSING", 30);
            long closedAt = System.nanoTime();
            boolean noticed = ch.closeFuture().await(DETECTION_SECONDS, TimeUnit.SECONDS);
            System.out.println(transport + ": the peer closed after reading 1 MiB of " + (flood.written.get() >> 20)
                    + " MiB written; the writer " + (noticed ? "closed after "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closedAt) + " ms (" + flood.failure + ")"
                    : "was still open after " + DETECTION_SECONDS + " s, writable " + ch.isWritable()));
            assertTrue(noticed, "the writer did not notice that its peer closed");
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }
}
