/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxConnector;
import io.github.nettyucx.handshake.UcxDataPathPolicy;
import io.github.nettyucx.handshake.UcxHandshake;
import io.github.nettyucx.handshake.UcxKeys;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.handshake.UcxTrustExchange;
import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.loop.UcxWorkerKey;
import io.github.nettyucx.jni.UcxNative;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelProgressiveFuture;
import io.netty.channel.ChannelProgressiveFutureListener;
import io.netty.channel.ChannelProgressivePromise;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_ACCEPTS;
import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_INSISTS;
import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_NETWORK;
import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_SHARED_MEMORY;
import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_TRUSTS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TCP data path as a peer sees it on the wire: after the hellos the connection's socket is plain TCP, as
 * docs/protocol.md says. A hand-written peer that insists on it speaks the handshake to a UCX server and then plain
 * bytes, so the format is checked from outside our own sender: nothing after the hello is parsed as a record, the
 * peer's end and its reset are its socket's, and no native connection stays behind. The same peer checks the
 * handshake's trust from outside: an untrusted peer gets this data path and no worker address, or is refused where
 * it has this data path off; a shared secret is proved on the wire and a replayed proof is not. Whole channels on
 * the TCP data path run the conformance suite and the transport tests in a surefire execution of their own
 * ({@code -Dio.github.nettyucx.tcpDataPath=always}, see the module's pom).
 */
class TcpDataPathTest {
    private EventLoopGroup group;
    private Channel server;
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private final BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();

    @Test
    void bothSidesMustAcceptItAndSharedMemoryOrRdmaStayOnUcx() {
        int shm = FLAG_ACCEPTS | FLAG_SHARED_MEMORY;
        assertFalse(UcxDataPathPolicy.streamChosen(shm, shm, true), "same host with shared memory on both sides");
        assertTrue(UcxDataPathPolicy.streamChosen(shm, shm, false), "another host, only TCP between them");
        assertTrue(UcxDataPathPolicy.streamChosen(FLAG_ACCEPTS, shm, true), "same host, one side restricted to TCP");
        int rdma = FLAG_ACCEPTS | FLAG_NETWORK;
        assertFalse(UcxDataPathPolicy.streamChosen(rdma, rdma, false), "RDMA on both sides");
        assertTrue(UcxDataPathPolicy.streamChosen(rdma, FLAG_ACCEPTS, false), "RDMA on one side only");
        assertFalse(UcxDataPathPolicy.streamChosen(FLAG_ACCEPTS, 0, false),
                "a peer that does not accept it (or predates it)");
        assertFalse(UcxDataPathPolicy.streamChosen(0, FLAG_ACCEPTS | FLAG_INSISTS, false), "this side set to never");
        assertTrue(UcxDataPathPolicy.streamChosen(shm | FLAG_NETWORK,
                FLAG_ACCEPTS | FLAG_INSISTS | FLAG_SHARED_MEMORY, true), "a side that insists");
    }

    @BeforeEach
    void startServer() throws Exception {
        TestTransport.UCX.assumeAvailable();
        group = TestTransport.UCX.newGroup(1);
        server = bindRecordingServer(new ServerBootstrap().group(group));
    }

    /** Binds a UCX server whose accepted channels go to {@link #accepted} and record into {@link #events}. */
    private Channel bindRecordingServer(ServerBootstrap bootstrap) throws InterruptedException {
        return bootstrap.channel(UcxServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepted.add(ch);
                        ch.pipeline().addLast(new Recorder());
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    @AfterEach
    void stopServer() throws Exception {
        if (server != null) {
            server.close().sync();
        }
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    @Timeout(30)
    void bytesFromAHandWrittenPeerArriveAsTheyAreAndRepliesComeBackAsPlainBytes() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = acceptedChannel();
            peer.send("first message");
            assertReads("first message");
            peer.send("second");
            assertReads("second");
            assertEquals("TCP data path", channel.ucxLanes().get(10, TimeUnit.SECONDS));

            channel.writeAndFlush(Unpooled.copiedBuffer("reply", StandardCharsets.US_ASCII)).sync();
            assertEquals("reply", peer.read(5));

            // The peer's end is its socket's: the channel reads what came before, then sees the end.
            peer.send("last");
            peer.socket.shutdownOutput();
            assertReads("last");
            assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
            assertEquals(-1, peer.readToEnd(), "the server did not close its side");
        }
    }

    /** Bytes the peer sends in the same segment as its hello are the first the pipeline reads. */
    @Test
    @Timeout(30)
    void bytesRightBehindTheHelloAreTheFirstTheChannelReads() throws Exception {
        try (RawPeer peer = new RawPeer(server, UcxTrust.none())) {
            byte[] early = "early".getBytes(StandardCharsets.US_ASCII);
            peer.write(concat(peer.hello(RawPeer.FLAGS, RawPeer.NO_PROOF), early));
            peer.readServerHello();
            assertReads("early");
            peer.send(" and later");
            assertReads(" and later");
        }
    }

    /**
     * What follows the hellos is the application's, never the session's: bytes laid out as a close record and a
     * shutdown-output record arrive as data, and the channel stays open.
     */
    @Test
    @Timeout(30)
    void bytesThatLookLikeRecordsAreTheApplicationsData() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = acceptedChannel();
            ByteBuffer records = ByteBuffer.allocate(2 * UcxHandshake.RECORD_BYTES)
                    .put(UcxHandshake.encodeRecord(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, 0))
                    .put(UcxHandshake.encodeRecord(UcxHandshake.RECORD_CLOSE, 0)).flip();
            peer.write(records.array());
            ByteBuf read = Unpooled.buffer();
            while (read.readableBytes() < records.capacity()) {
                Object event = events.poll(10, TimeUnit.SECONDS);
                assertInstanceOf(String.class, event, "after " + read.readableBytes() + " bytes");
                read.writeBytes(((String) event).getBytes(StandardCharsets.ISO_8859_1));
            }
            assertArrayEquals(records.array(), ByteBufUtil.getBytes(read), "the bytes as they were sent");
            assertTrue(channel.isActive(), "the channel took data for a record");
            assertNull(events.poll(200, TimeUnit.MILLISECONDS), "an event besides the data");
        }
    }

    /**
     * The native connection our hello advertised carries nothing on this data path: it goes as the hellos choose TCP,
     * so an open connection holds none.
     */
    @Test
    @Timeout(60)
    void anOpenConnectionHoldsNoNativeConnection() throws Exception {
        long connectionsBefore = NativeConnections.settled();
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = acceptedChannel();
            peer.send("open");
            assertReads("open");
            NativeConnections.assertBackTo(connectionsBefore, 20, "the connection's native connection is freed");
            assertTrue(channel.isActive());
        }
    }

    /**
     * A netty-ucx peer on the TCP data path keeps the loop waiting as its wait strategy says, as the frame path did
     * and as a UCX connection does; a loop whose connections are all to peers that do not speak netty-ucx waits as
     * epoll's loop does.
     */
    @Test
    @Timeout(60)
    void theLoopSpinsForATcpDataPathPeerAndNotForAPlainOne() throws Exception {
        UcxSocketChannel channel;
        try (RawPeer peer = new RawPeer(server)) {
            channel = acceptedChannel();
            peer.send("netty-ucx");
            assertReads("netty-ucx");
            UcxIoHandler handler = UcxIoHandler.of(channel.registration());
            assertFalse(channel.eventLoop().submit(handler::onlyPlainPeers).get(10, TimeUnit.SECONDS),
                    "the loop waits as epoll's for a netty-ucx peer");
        }
        assertTrue(channel.closeFuture().await(10, TimeUnit.SECONDS), "the channel stays open after the peer left");
        assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
        try (Socket plain = new Socket()) {
            plain.connect(server.localAddress());
            plain.getOutputStream().write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            UcxSocketChannel plainChannel = acceptedChannel();
            assertReads("GET / HTTP/1.1\r\n");
            UcxIoHandler handler = UcxIoHandler.of(plainChannel.registration());
            assertTrue(plainChannel.eventLoop().submit(handler::onlyPlainPeers).get(10, TimeUnit.SECONDS),
                    "the loop spins for a peer that does not speak netty-ucx");
        }
    }

    /**
     * The server's side of the handshake as the hand-written peer sees it: an intro with a fresh nonce and, without a
     * secret, a proof of zeros; then, for a peer of this process's user (the kernel's socket table says so), a
     * hello that trusts it. The data path is still the TCP one the peer insists on, and plain bytes follow the hellos.
     */
    @Test
    @Timeout(30)
    void aPeerOfTheSameUserIsTrustedAndStillGetsTheTcpDataPathItInsistsOn() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = acceptedChannel();
            assertArrayEquals(RawPeer.NO_PROOF, peer.serverIntro.proof, "a server without a secret proves nothing");
            assertFalse(Arrays.equals(peer.trust.ownNonce(), peer.serverIntro.nonce), "the server echoed our nonce");
            assertTrue((peer.serverHello.flags & FLAG_TRUSTS) != 0,
                    "the server does not trust a peer of its own user (same-user, the default)");
            assertTrue((peer.serverHello.flags & FLAG_ACCEPTS) != 0, "the server's hello refuses the TCP data path");
            assertEquals(UcxConnector.NO_CONNECTION_ID, peer.serverHello.connectionId,
                    "the server created a native connection for the TCP data path");
            assertTrue(peer.serverHello.sameHost());
            peer.send("over TCP");
            assertReads("over TCP");
            assertEquals("TCP data path", channel.ucxLanes().get(10, TimeUnit.SECONDS));
        }
    }

    /**
     * A netty-ucx peer the server does not trust gets the TCP data path even where UCX would be chosen between
     * trusted peers (it claims shared memory and RDMA, and does not insist): no worker address follows the server's
     * hello (the first bytes after it are the channel's), and no UCX endpoint is created.
     */
    @Test
    @Timeout(30)
    void aPeerTheServerDoesNotTrustGetsTheTcpDataPathAndNoAddress() throws Exception {
        Channel distrustful = bindRecordingServer(new ServerBootstrap().group(group)
                .childOption(UcxChannelOption.TRUST, UcxTrust.none()));
        try {
            long endpointsBefore = Ucx.endpointsCreated();
            try (RawPeer peer = new RawPeer(distrustful, UcxTrust.anyPeer())) {
                peer.sendHello(FLAG_ACCEPTS | FLAG_SHARED_MEMORY | FLAG_NETWORK | FLAG_TRUSTS, RawPeer.NO_PROOF);
                peer.readServerHello();
                assertEquals(0, peer.serverHello.flags & FLAG_TRUSTS, "a server that trusts no one trusts us");
                UcxSocketChannel channel = acceptedChannel();
                channel.writeAndFlush(Unpooled.copiedBuffer("reply", StandardCharsets.US_ASCII)).sync();
                assertEquals("reply", peer.read(5), "what follows the server's hello");
                peer.send("data");
                assertReads("data");
                assertEquals("TCP data path", channel.ucxLanes().get(10, TimeUnit.SECONDS));
                peer.socket.shutdownOutput();
                assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
            }
            assertEquals(endpointsBefore, Ucx.endpointsCreated(), "UCX endpoints created for an untrusted peer");
        } finally {
            distrustful.close().sync();
        }
    }

    /**
     * An untrusted peer that has the TCP data path off is refused: the server answers with a hello that does not
     * trust it (so that the peer can tell why), then closes the connection, without its worker address.
     */
    @Test
    @Timeout(30)
    void anUntrustedPeerWithoutTheTcpDataPathIsRefusedBeforeAnyAddress() throws Exception {
        Channel distrustful = bindRecordingServer(new ServerBootstrap().group(group)
                .childOption(UcxChannelOption.TRUST, UcxTrust.none()));
        try {
            long endpointsBefore = Ucx.endpointsCreated();
            try (RawPeer peer = new RawPeer(distrustful, UcxTrust.anyPeer())) {
                peer.sendHello(FLAG_SHARED_MEMORY | FLAG_TRUSTS, RawPeer.NO_PROOF);
                // Its hello, so that the peer reaches the same verdict and can say why: no trust, no TCP data path.
                UcxHandshake.Hello refusal = peer.readServerHello();
                assertEquals(0, refusal.flags & FLAG_TRUSTS, "the refusing server claims to trust the peer");
                assertEquals(UcxDataPathPolicy.Choice.NONE,
                        UcxDataPathPolicy.choose(FLAG_SHARED_MEMORY | FLAG_TRUSTS, refusal.flags, true));
                assertEndWithNothingMore(peer);
                Channel channel = acceptedChannel();
                assertTrue(channel.closeFuture().await(10, TimeUnit.SECONDS), "the refused channel stays open");
            }
            assertEquals(endpointsBefore, Ucx.endpointsCreated(), "UCX endpoints created for a refused peer");
        } finally {
            distrustful.close().sync();
        }
    }

    /**
     * With a shared secret the server proves it knows the secret in its intro, and trusts a peer whose hello proves
     * the same; it trusts neither a peer with another secret nor one that replays a proof from an earlier connection
     * (those still get the TCP data path, which both accept).
     */
    @Test
    @Timeout(30)
    void aSharedSecretIsProvedOnTheWireAndAReplayedProofIsNot() throws Exception {
        byte[] secret = UcxKeys.generate();
        Channel secretive = bindRecordingServer(new ServerBootstrap().group(group)
                .childOption(UcxChannelOption.TRUST, UcxTrust.sharedSecret(secret)));
        try {
            byte[] recordedProof;
            try (RawPeer peer = new RawPeer(secretive, UcxTrust.sharedSecret(secret))) {
                assertTrue(peer.trust.trusts(null, peer.serverIntro.proof, () -> -1),
                        "the server's intro does not prove the secret");
                recordedProof = peer.trust.proof();
                peer.sendHello(RawPeer.FLAGS, recordedProof);
                assertTrue((peer.readServerHello().flags & FLAG_TRUSTS) != 0, "a peer proving the secret");
                assertDataArrives(peer, "proved");
            }
            byte[] otherSecret = UcxKeys.generate();
            try (RawPeer peer = new RawPeer(secretive, UcxTrust.sharedSecret(otherSecret))) {
                assertFalse(peer.trust.trusts(null, peer.serverIntro.proof, () -> -1),
                        "a server with another secret proves ours");
                peer.sendHello(FLAG_ACCEPTS | FLAG_INSISTS, peer.trust.proof());
                assertEquals(0, peer.readServerHello().flags & FLAG_TRUSTS, "a peer with another secret");
                assertDataArrives(peer, "another secret");
            }
            try (RawPeer peer = new RawPeer(secretive, UcxTrust.none())) {
                peer.sendHello(RawPeer.FLAGS, recordedProof);
                assertEquals(0, peer.readServerHello().flags & FLAG_TRUSTS, "a proof replayed from another connection");
                assertDataArrives(peer, "replayed");
            }
        } finally {
            secretive.close().sync();
        }
    }

    private void assertDataArrives(RawPeer peer, String text) throws Exception {
        acceptedChannel();
        peer.send(text);
        assertReads(text);
        peer.socket.shutdownOutput();
        assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
    }

    /** The server closes (or resets) the connection without sending anything more. */
    private static void assertEndWithNothingMore(RawPeer peer) throws IOException {
        int next;
        try {
            next = peer.in.read();
        } catch (SocketException reset) {
            return;
        }
        assertEquals(-1, next, "the server sent more than it should have before closing");
    }

    @Test
    @Timeout(30)
    void aDefaultFileRegionLeavesBySendfileAndARegionOfASubclassIsCopied(@TempDir Path dir) throws Exception {
        byte[] content = new DataStream(11).next(3_000_001);
        Path file = Files.write(dir.resolve("content"), content);
        int offset = 1000;
        int count = content.length - offset - 1;
        int copiedCount = 5000;
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = acceptedChannel();
            DefaultFileRegion region = new DefaultFileRegion(file.toFile(), offset, count);
            DefaultFileRegion subclassed = new DefaultFileRegion(file.toFile(), 0, copiedCount) {
            };
            List<Long> progress = new CopyOnWriteArrayList<>();
            ChannelProgressivePromise promise = channel.newProgressivePromise();
            promise.addListener(new ChannelProgressiveFutureListener() {
                @Override
                public void operationProgressed(ChannelProgressiveFuture future, long at, long total) {
                    progress.add(at);
                }

                @Override
                public void operationComplete(ChannelProgressiveFuture future) {
                }
            });
            long sentFromFilesBefore = UcxNative.bytesSentFromFiles();

            channel.write(Unpooled.copiedBuffer("head", StandardCharsets.US_ASCII));
            ChannelFuture regionSent = channel.write(region, promise);
            channel.write(subclassed);
            ChannelFuture tailSent = channel.writeAndFlush(Unpooled.copiedBuffer("tail", StandardCharsets.US_ASCII));

            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.write("head".getBytes(StandardCharsets.US_ASCII));
            expected.write(content, offset, count);
            expected.write(content, 0, copiedCount);
            expected.write("tail".getBytes(StandardCharsets.US_ASCII));
            assertArrayEquals(expected.toByteArray(), peer.readBytes(expected.size()), "bytes the peer read");
            regionSent.sync();
            tailSent.sync();
            assertEquals(count, UcxNative.bytesSentFromFiles() - sentFromFilesBefore, "bytes sent by sendfile");

            assertEquals(count, region.transferred(), "transferred()");
            assertEquals(0, region.refCnt(), "the region is released");
            assertEquals(copiedCount, subclassed.transferred());
            assertEquals(0, subclassed.refCnt());
            assertFalse(progress.isEmpty(), "no progress events");
            for (int i = 1; i < progress.size(); i++) {
                assertTrue(progress.get(i) > progress.get(i - 1), "progress did not rise: " + progress);
            }
            assertEquals(count, progress.get(progress.size() - 1), "progress at the last event");
        }
    }

    /**
     * A region that waits for a peer that reads nothing is released, with its file, when the channel closes; the
     * write fails.
     */
    @Test
    @Timeout(60)
    void aRegionWaitingForAPeerThatReadsNothingLetsGoOfItsFileWhenTheChannelCloses(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("large");
        long length = 64L << 20;
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(length);
        }
        String target = file.toRealPath().toString();
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = acceptedChannel();
            DefaultFileRegion region = new DefaultFileRegion(file.toFile(), 0, length);
            ChannelFuture sent = channel.writeAndFlush(region);
            assertTrue(Await.transferStalled(region, 10, TimeUnit.SECONDS), "the region started");
            assertTrue(descriptorsOf(target) > 0, "the region's file is not open");

            channel.close().sync();
            assertTrue(sent.await(10, TimeUnit.SECONDS), "the region's write completed");
            assertFalse(sent.isSuccess(), "the region's write succeeded");
            assertEquals(0, region.refCnt(), "the region is released");
        }
        assertEquals(0, descriptorsOf(target), "descriptors of the file left open");
    }

    private static long descriptorsOf(String target) {
        return OpenDescriptors.targets().stream().filter(target::equals).count();
    }

    /** A peer that closes in the middle of what it meant to send is an end of stream, as over any TCP. */
    @Test
    @Timeout(30)
    void aPeerThatClosesIsTheEndOfTheStreamAndLeavesNothingBehind() throws Exception {
        long connectionsBefore = NativeConnections.settled();
        try (RawPeer peer = new RawPeer(server)) {
            peer.send("whole");
            assertReads("whole");
            peer.send("half of");
        }
        assertReads("half of");
        assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
        NativeConnections.assertBackTo(connectionsBefore, 20, "none left allocated");
    }

    @Test
    @Timeout(30)
    void aPeerThatResetsTheConnectionIsNamedInTheError() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            peer.send("whole");
            assertReads("whole");
            peer.socket.setSoLinger(true, 0);
        }
        Object failure = events.poll(10, TimeUnit.SECONDS);
        assertInstanceOf(IOException.class, failure);
        assertTrue(((IOException) failure).getMessage().contains("Connection reset by peer"), failure.toString());
        assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
    }

    /** The channel the server accepted last (it must have, within 10 s). */
    private UcxSocketChannel acceptedChannel() throws InterruptedException {
        UcxSocketChannel channel = (UcxSocketChannel) accepted.poll(10, TimeUnit.SECONDS);
        assertNotNull(channel, "no channel accepted");
        return channel;
    }

    /**
     * Reads texts from {@link #events} until they make up the expected one (the channel hands a large
     * message up in pieces of its receive buffer allocator's size) and compares them, briefly on failure.
     */
    private void assertReads(String expected) throws InterruptedException {
        StringBuilder read = new StringBuilder();
        while (read.length() < expected.length()) {
            Object event = events.poll(10, TimeUnit.SECONDS);
            assertInstanceOf(String.class, event, "after " + read.length() + " of " + expected.length() + " bytes");
            read.append((String) event);
        }
        assertEquals(expected.length(), read.length(), "bytes read for a message of " + expected.charAt(0));
        assertTrue(expected.contentEquals(read), "content of the message of " + expected.charAt(0));
    }

    /** Puts what the accepted channel reads (as text), its first exception and its end into {@link #events}. */
    private final class Recorder extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            events.add(buf.toString(StandardCharsets.ISO_8859_1));
            buf.release();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            events.add(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            events.add("inactive");
        }
    }

    private static ByteBuffer concat(ByteBuffer first, byte[] second) {
        return ByteBuffer.allocate(first.remaining() + second.length).put(first).put(second).flip();
    }

    /**
     * A peer written by hand: a plain socket that speaks the handshake (docs/protocol.md) and then plain
     * bytes. By default it is a netty-ucx client without a secret that trusts the server and insists on the TCP data
     * path.
     */
    private static final class RawPeer implements AutoCloseable {
        /** The owner key of the raw peers' hellos (no address follows them here). */
        private static final UcxWorkerKey OWNER_KEY = new UcxWorkerKey();
        static final int FLAGS = FLAG_ACCEPTS | FLAG_INSISTS | FLAG_TRUSTS;
        static final byte[] NO_PROOF = new byte[UcxHandshake.PROOF_BYTES];

        final Socket socket;
        final DataInputStream in;
        final DataOutputStream out;
        /** This peer's side of the trust exchange: its nonce went out in its intro. */
        final UcxTrustExchange trust;
        UcxHandshake.Intro serverIntro;
        UcxHandshake.Hello serverHello;

        /** Connects, exchanges intros, sends the default hello with no proof and reads the server's hello. */
        RawPeer(Channel server) throws IOException {
            this(server, UcxTrust.none());
            sendHello(FLAGS, NO_PROOF);
            readServerHello();
        }

        /**
         * Connects, sends its intro (the magic first: the server answers a netty-ucx client only) and reads the
         * server's; the hello is the caller's to send.
         */
        RawPeer(Channel server, UcxTrust rules) throws IOException {
            socket = new Socket();
            socket.connect(server.localAddress());
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000);
            in = new DataInputStream(socket.getInputStream());
            out = new DataOutputStream(socket.getOutputStream());
            trust = new UcxTrustExchange(rules, false);
            write(UcxHandshake.encodeClientIntro(trust.ownNonce(), trust.ownKeyIds()));
            byte[] intro = new byte[UcxHandshake.SERVER_INTRO_BYTES];
            in.readFully(intro);
            serverIntro = UcxHandshake.decodeIntro(ByteBuffer.wrap(intro), true, trust.ownNonce());
            assertNotNull(serverIntro, "a whole server intro that decodes to nothing");
            trust.peerNonce(serverIntro.nonce);
        }

        /**
         * A hello: {@code proof} first, then this host's proof, no worker address (none goes out before the data path
         * is chosen).
         */
        ByteBuffer hello(int flags, byte[] proof) {
            return UcxHandshake.encodeHello(flags, 7, 0, 0, 4, UcxSocketOptions.DEFAULT_RECV_UNIT,
                    trust.hostProof(), OWNER_KEY.publicKey(), proof);
        }

        void sendHello(int flags, byte[] proof) throws IOException {
            write(hello(flags, proof));
        }

        /** The server's hello, no proof; on the TCP data path the channel's bytes follow it, no address. */
        UcxHandshake.Hello readServerHello() throws IOException {
            byte[] hello = new byte[UcxHandshake.HELLO_BYTES];
            in.readFully(hello);
            serverHello = UcxHandshake.decodeHello(ByteBuffer.wrap(hello), false, trust.expectedPeerHostProof());
            assertNotNull(serverHello, "a whole server hello that decodes to nothing");
            return serverHello;
        }

        void write(ByteBuffer bytes) throws IOException {
            write(Arrays.copyOfRange(bytes.array(), bytes.arrayOffset() + bytes.position(),
                    bytes.arrayOffset() + bytes.limit()));
        }

        void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        void send(String text) throws IOException {
            write(text.getBytes(StandardCharsets.US_ASCII));
        }

        String read(int bytes) throws IOException {
            return new String(readBytes(bytes), StandardCharsets.US_ASCII);
        }

        byte[] readBytes(int bytes) throws IOException {
            byte[] read = new byte[bytes];
            in.readFully(read);
            return read;
        }

        /** Reads until the server's end of stream; returns -1 then (a read timeout fails the test). */
        int readToEnd() throws IOException {
            InputStream stream = socket.getInputStream();
            byte[] discard = new byte[4096];
            int n;
            do {
                n = stream.read(discard);
            } while (n > 0);
            return n;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
