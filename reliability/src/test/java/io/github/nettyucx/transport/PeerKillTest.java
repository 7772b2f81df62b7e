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
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGKILL of the peer process in the three moments the issue names (a large transfer with writes pending, the
 * connection set-up, idle), in both roles where it makes a difference. The survivor (this JVM) must see its
 * channel go inactive within two seconds, fail every pending write, and get back its native connections, file
 * descriptors and buffers. PeerDeathTest in transport-ucx covers the kill during continuous streaming on all
 * transports; this adds the other moments and the resource accounting.
 */
class PeerKillTest extends AbstractWarmGroupTest {
    private static final long DETECTION_MILLIS = 2_000;
    private static final long ALLOCATOR_SLACK = 8L << 20;
    private static final long RSS_SLACK = 64L << 20;
    @BeforeEach
    void clearLog() {
        LogRecorder.install().clear();
    }

    @Test
    @Timeout(90)
    void killedDuringLargeTransferFailsPendingWrites() throws Exception {
        ResourceSnapshot before = LeakChecks.baseline();
        try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "sink-server", "127.0.0.1", "7")) {
            int port = Integer.parseInt(peer.awaitValue(ReliabilityPeer.PORT));
            Watcher watcher = new Watcher();
            Channel client = connect(port, watcher).sync().channel();
            // 64 MiB written at once, without waiting for writability: most of it is still queued at the kill.
            byte[] chunk = new DataStream(7).next(64 * 1024);
            List<ChannelFuture> writes = new ArrayList<>();
            for (int i = 0; i < 1024; i++) {
                writes.add(client.write(Unpooled.wrappedBuffer(chunk)));
            }
            client.flush();
            assertTrue(ResourceSnapshot.await(() -> writes.get(16).isDone(), 30),
                    "the first MiB was not sent; peer output:\n" + peer.output());

            long killedAt = peer.kill();
            assertTrue(watcher.inactive.await(remaining(killedAt), TimeUnit.MILLISECONDS),
                    "client still active " + DETECTION_MILLIS + " ms after the peer was killed");
            long detected = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            assertTrue(ResourceSnapshot.await(() -> writes.stream().allMatch(ChannelFuture::isDone), 2),
                    "write promises still pending after the channel closed");
            long failed = writes.stream().filter(f -> f.cause() != null).count();
            long succeeded = writes.stream().filter(ChannelFuture::isSuccess).count();
            assertTrue(failed > 0, "no write failed although the peer died with 64 MiB queued");
            assertEquals(writes.size(), failed + succeeded);
            System.out.println("large transfer: inactive " + detected + " ms after SIGKILL; " + succeeded
                    + " writes had completed, " + failed + " failed (" + writes.get(writes.size() - 1).cause() + ")");
        }
        LeakChecks.assertReturnedTo(before, ALLOCATOR_SLACK, RSS_SLACK, "after a kill during a large transfer");
    }

    @Test
    @Timeout(90)
    void serverKilledWhileIdle() throws Exception {
        ResourceSnapshot before = LeakChecks.baseline();
        try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "echo-server", "127.0.0.1")) {
            int port = Integer.parseInt(peer.awaitValue(ReliabilityPeer.PORT));
            Watcher watcher = new Watcher();
            Channel client = connect(port, watcher).sync().channel();
            client.writeAndFlush(Unpooled.wrappedBuffer(new byte[1000])).sync();
            assertTrue(ResourceSnapshot.await(() -> watcher.received >= 1000, 10), "no echo");
            Thread.sleep(500); // idle

            long killedAt = peer.kill();
            assertTrue(watcher.inactive.await(remaining(killedAt), TimeUnit.MILLISECONDS),
                    "idle client still active " + DETECTION_MILLIS + " ms after the server was killed");
            System.out.println("idle client: inactive " + elapsed(killedAt) + " ms after SIGKILL of the server");
            ChannelFuture late = client.writeAndFlush(Unpooled.wrappedBuffer(new byte[10]));
            assertTrue(late.await(2, TimeUnit.SECONDS) && late.cause() != null, "a write after the death succeeded");
        }
        LeakChecks.assertReturnedTo(before, ALLOCATOR_SLACK, RSS_SLACK, "after the idle server was killed");
    }

    @Test
    @Timeout(90)
    void clientKilledWhileIdle() throws Exception {
        BlockingQueue<Watcher> accepted = new LinkedBlockingQueue<>();
        Channel server = bindServer(accepted);
        try {
            ResourceSnapshot before = LeakChecks.baseline();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "idle-client", "127.0.0.1",
                    Integer.toString(port))) {
                peer.awaitLine(ReliabilityPeer.CONNECTED);
                Watcher watcher = accepted.poll(10, TimeUnit.SECONDS);
                assertNotNull(watcher, "connection not accepted");
                assertTrue(watcher.active.await(10, TimeUnit.SECONDS), "accepted channel never active");
                Thread.sleep(500); // idle

                long killedAt = peer.kill();
                assertTrue(watcher.inactive.await(remaining(killedAt), TimeUnit.MILLISECONDS),
                        "accepted channel still active " + DETECTION_MILLIS + " ms after the client was killed");
                System.out.println("idle server side: inactive " + elapsed(killedAt) + " ms after SIGKILL");
            }
            LeakChecks.assertReturnedTo(before, ALLOCATOR_SLACK, RSS_SLACK, "after the idle client was killed");
            assertTrue(server.isActive(), "the server channel closed");
        } finally {
            server.close().sync();
        }
    }

    /** The peer dies after its TCP connection was accepted and the intros exchanged, before its hello was complete. */
    @Test
    @Timeout(90)
    void clientKilledDuringHandshake() throws Exception {
        BlockingQueue<Watcher> accepted = new LinkedBlockingQueue<>();
        Channel server = bindServer(accepted);
        try {
            ResourceSnapshot before = LeakChecks.baseline();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "half-hello", "127.0.0.1",
                    Integer.toString(port))) {
                peer.awaitLine(ReliabilityPeer.SENT);
                Watcher watcher = accepted.poll(10, TimeUnit.SECONDS);
                assertNotNull(watcher, "connection not accepted");
                Thread.sleep(200);
                // Protocol v4: the peer sent its intro and part of its hello; the server allocates its native
                // connection only for a complete hello (what a stranger can make it hold is bounded).
                assertEquals(before.nativeConnections, UcxNative.connectionsAllocated(),
                        "the accepted channel must hold no native connection before the client's hello is complete");

                long killedAt = peer.kill();
                assertTrue(watcher.channel.closeFuture().await(remaining(killedAt), TimeUnit.MILLISECONDS),
                        "half-open accepted channel still open " + DETECTION_MILLIS + " ms after the peer was killed");
                assertEquals(0, watcher.activations, "a channel without a complete hello became active");
                System.out.println("handshake, server side: closed " + elapsed(killedAt) + " ms after SIGKILL");
            }
            LeakChecks.assertReturnedTo(before, ALLOCATOR_SLACK, RSS_SLACK, "after a client died in its handshake");
        } finally {
            server.close().sync();
        }
    }

    /** The server process is frozen before it answers our intro, then killed: the connect must fail. */
    @Test
    @Timeout(90)
    void serverKilledDuringHandshake() throws Exception {
        ResourceSnapshot before = LeakChecks.baseline();
        try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "echo-server", "127.0.0.1")) {
            int port = Integer.parseInt(peer.awaitValue(ReliabilityPeer.PORT));
            peer.stop(); // the kernel still completes the TCP connect; the hello is never answered
            Watcher watcher = new Watcher();
            ChannelFuture connect = connect(port, watcher);
            Thread.sleep(500);
            assertTrue(!connect.isDone(), "connect completed against a frozen server: " + connect.cause());
            // Protocol v4: the client sent its intro and allocates its native connection only on the server's.
            assertEquals(before.nativeConnections, UcxNative.connectionsAllocated(),
                    "the client holds a native connection before the server answered its intro");

            long killedAt = peer.kill();
            assertTrue(connect.await(remaining(killedAt), TimeUnit.MILLISECONDS),
                    "connect still pending " + DETECTION_MILLIS + " ms after the server was killed");
            assertTrue(connect.cause() instanceof ConnectException, "expected a ConnectException: " + connect.cause());
            System.out.println("handshake, client side: connect failed " + elapsed(killedAt)
                    + " ms after SIGKILL: " + connect.cause());
        }
        LeakChecks.assertReturnedTo(before, ALLOCATOR_SLACK, RSS_SLACK, "after the server died in the handshake");
    }

    private static ChannelFuture connect(int port, Watcher watcher) {
        return new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 30_000)
                .handler(watcher)
                .connect(new InetSocketAddress("127.0.0.1", port));
    }

    private static Channel bindServer(BlockingQueue<Watcher> accepted) throws InterruptedException {
        // The half-hello peer is a plain socket in a fresh JVM: it may take longer than the server's default wait
        // for a silent client to send its first bytes, which would make it a plain TCP client; these tests are
        // about a client that dies in the netty-ucx handshake, so the server waits for the bytes.
        return new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childOption(UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS, 0)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        Watcher w = new Watcher();
                        w.channel = ch;
                        accepted.add(w);
                        ch.pipeline().addLast(w);
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    private static long remaining(long killedAt) {
        return Math.max(0, DETECTION_MILLIS - elapsed(killedAt));
    }

    private static long elapsed(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    /** Records a channel's life; counts and releases what it reads. */
    static final class Watcher extends ChannelInboundHandlerAdapter {
        final CountDownLatch active = new CountDownLatch(1);
        final CountDownLatch inactive = new CountDownLatch(1);
        volatile Channel channel;
        volatile long received;
        volatile int activations;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            activations++;
            active.countDown();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            received += ((ByteBuf) msg).readableBytes();
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            inactive.countDown();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
