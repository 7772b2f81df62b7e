/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
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
import java.io.UncheckedIOException;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.github.nettyucx.transport.UcxDataPathPolicy.FLAG_ACCEPTS;
import static io.github.nettyucx.transport.UcxDataPathPolicy.FLAG_INSISTS;
import static io.github.nettyucx.transport.UcxDataPathPolicy.FLAG_NETWORK;
import static io.github.nettyucx.transport.UcxDataPathPolicy.FLAG_SHARED_MEMORY;
import static io.github.nettyucx.transport.UcxDataPathPolicy.FLAG_TRUSTS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TCP data path (ucx_frame_path.c) as a peer sees it on the wire: a hand-written peer that insists on
 * it speaks the frames to a UCX server, so the format is checked from outside our own sender, and so
 * are malformed frames, a peer dying in the middle of one, and a peer resetting the connection. The same peer
 * checks the handshake's trust from outside: an untrusted peer gets this data path and no worker address, or is
 * refused where it has this data path off; a shared secret is proved on the wire and a replayed proof is not. Whole
 * channels on the TCP data path run the conformance suite and the transport tests in a surefire
 * execution of their own ({@code -Dio.github.nettyucx.tcpDataPath=always}, see the module's pom).
 */
class TcpDataPathTest {
    private static final int DATA = 0;
    private static final int RECORD = 1;
    private static final int TYPE_SHIFT = 30;
    private static final int CREDIT_HEADER_BYTES = UcxNative.HEADER_BYTES;

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
    void framesFromAHandWrittenPeerArriveAndRepliesComeBackAsFrames() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = (UcxSocketChannel) accepted.poll(10, TimeUnit.SECONDS);
            assertNotNull(channel, "no channel accepted");
            peer.sendData("first message");
            peer.sendData("second");
            assertEquals("first message", events.poll(10, TimeUnit.SECONDS));
            assertEquals("second", events.poll(10, TimeUnit.SECONDS));
            assertTrue(channel.ucxLanes().get(10, TimeUnit.SECONDS).startsWith("TCP data path"));

            channel.writeAndFlush(Unpooled.copiedBuffer("reply", StandardCharsets.US_ASCII)).sync();
            assertEquals("reply", peer.readData());

            // A close record after our two messages: the channel reads both and then sees the end.
            peer.sendRecord('C', 2);
            assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
            assertEquals(-1, peer.readToEnd(), "the server did not close its side");
        }
    }

    /**
     * The server's side of protocol 4 as the hand-written peer sees it: an intro with a fresh nonce and, without a
     * secret, a proof of zeros; then, for a peer of this process's user (the kernel's socket table says so), a
     * hello that trusts it. The data path is still the TCP one the peer insists on, and frames follow the hellos.
     */
    @Test
    @Timeout(30)
    void aPeerOfTheSameUserIsTrustedAndStillGetsTheTcpDataPathItInsistsOn() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = (UcxSocketChannel) accepted.poll(10, TimeUnit.SECONDS);
            assertNotNull(channel, "no channel accepted");
            assertArrayEquals(RawPeer.NO_PROOF, peer.serverIntro.proof, "a server without a secret proves nothing");
            assertFalse(Arrays.equals(peer.trust.ownNonce(), peer.serverIntro.nonce), "the server echoed our nonce");
            assertTrue((peer.serverHello.flags & FLAG_TRUSTS) != 0,
                    "the server does not trust a peer of its own user (same-user, the default)");
            assertTrue((peer.serverHello.flags & FLAG_ACCEPTS) != 0, "the server's hello refuses the TCP data path");
            assertTrue(peer.serverHello.sameHost());
            peer.sendData("over TCP");
            assertEquals("over TCP", events.poll(10, TimeUnit.SECONDS));
            assertTrue(channel.ucxLanes().get(10, TimeUnit.SECONDS).startsWith("TCP data path"));
        }
    }

    /**
     * A netty-ucx peer the server does not trust gets the TCP data path even where UCX would be chosen between
     * trusted peers (it claims shared memory and RDMA, and does not insist): no worker address follows the server's
     * hello (the first bytes after it are a data frame), and no UCX endpoint is created.
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
                UcxSocketChannel channel = (UcxSocketChannel) accepted.poll(10, TimeUnit.SECONDS);
                assertNotNull(channel, "no channel accepted");
                channel.writeAndFlush(Unpooled.copiedBuffer("reply", StandardCharsets.US_ASCII)).sync();
                assertEquals("reply", peer.readData(), "what follows the server's hello");
                peer.sendData("data");
                assertEquals("data", events.poll(10, TimeUnit.SECONDS));
                assertTrue(channel.ucxLanes().get(10, TimeUnit.SECONDS).startsWith("TCP data path"));
                peer.sendRecord('C', 1);
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
                Channel channel = accepted.poll(10, TimeUnit.SECONDS);
                assertNotNull(channel, "no channel accepted");
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
        byte[] secret = "the secret of this test, 32 byte".getBytes(StandardCharsets.US_ASCII);
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
            byte[] otherSecret = "not the secret of this test, 32b".getBytes(StandardCharsets.US_ASCII);
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
        Channel channel = accepted.poll(10, TimeUnit.SECONDS);
        assertNotNull(channel, "no channel accepted");
        peer.sendData(text);
        assertEquals(text, events.poll(10, TimeUnit.SECONDS));
        peer.sendRecord('C', 1);
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

    /**
     * Large frames are read straight into their slots: the rest of a frame in progress with the next
     * frame word (read_direct), and at a frame boundary the next frame guessed to have the last data
     * frame's size (read_at_boundary, ucx_frame_path.c). Each write here starts at a boundary the server has
     * drained to: a frame of the guessed size, frames shorter than the guess in one write, a longer one,
     * two of the guessed size in one write, a frame word split across writes, a frame whose first part
     * came alone, and a record where a data frame was guessed.
     */
    @Test
    @Timeout(30)
    void largeFramesOfChangingSizesArriveWholeWhenReadStraightIntoTheirSlots() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            assertNotNull(accepted.poll(10, TimeUnit.SECONDS), "no channel accepted");
            String[][] writes = {
                {"a".repeat(8000)},
                {"b".repeat(8000)},
                {"c".repeat(5000), "d".repeat(4500)},
                {"e".repeat(20000)},
                {"f".repeat(20000), "g".repeat(20000)},
                {"h".repeat(6000), "i".repeat(100), "j".repeat(9000)},
            };
            int messages = 0;
            for (String[] write : writes) {
                peer.writeAtOnce(write);
                for (String text : write) {
                    assertReads(text);
                    messages++;
                }
            }
            byte[] split = RawPeer.dataFrame("k".repeat(9000));
            peer.out.write(split, 0, 2);
            peer.out.flush();
            Thread.sleep(100);
            peer.out.write(split, 2, split.length - 2);
            peer.out.flush();
            assertReads("k".repeat(9000));
            messages++;

            // A frame whose first part came alone: its rest is read straight into its slot.
            byte[] first = RawPeer.dataFrame("l".repeat(30000));
            byte[] next = RawPeer.dataFrame("m".repeat(30000));
            peer.out.write(first, 0, 10000);
            peer.out.flush();
            Thread.sleep(100);
            ByteArrayOutputStream rest = new ByteArrayOutputStream();
            rest.write(first, 10000, first.length - 10000);
            rest.write(next);
            peer.out.write(rest.toByteArray());
            peer.out.flush();
            assertReads("l".repeat(30000));
            assertReads("m".repeat(30000));
            messages += 2;

            peer.sendRecord('C', messages);
            assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
            assertEquals(-1, peer.readToEnd(), "the server did not close its side");
        }
    }

    /**
     * A {@link DefaultFileRegion} goes out with sendfile, from its file to the socket (ucx_frame_path.c): every one of
     * its bytes is counted by the native side as sent so, and none of the bytes around it. Its frames are
     * well formed, at most the peer's unit each, and carry its bytes in order after the buffer written before it
     * (which shares the first frame) and before what follows: a region of a subclass, which is copied (it may
     * transfer its bytes its own way), and a buffer. The region is larger than the socket holds, so that its write
     * may complete, and the region be released, while its last frames still wait to leave. Progress,
     * {@code transferred()} and release are as for a region that is copied.
     */
    @Test
    @Timeout(30)
    void aDefaultFileRegionLeavesBySendfileAndARegionOfASubclassIsCopied(@TempDir Path dir) throws Exception {
        byte[] content = new DataStream(11).next(3_000_001);
        Path file = Files.write(dir.resolve("content"), content);
        int offset = 1000;
        int count = content.length - offset - 1;
        int copiedCount = 5000;
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = (UcxSocketChannel) accepted.poll(10, TimeUnit.SECONDS);
            assertNotNull(channel, "no channel accepted");
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
            long sentFromFilesBefore = UcxNative.streamBytesSentFromFiles();

            channel.write(Unpooled.copiedBuffer("head", StandardCharsets.US_ASCII));
            ChannelFuture regionSent = channel.write(region, promise);
            channel.write(subclassed);
            ChannelFuture tailSent = channel.writeAndFlush(Unpooled.copiedBuffer("tail", StandardCharsets.US_ASCII));

            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.write("head".getBytes(StandardCharsets.US_ASCII));
            expected.write(content, offset, count);
            expected.write(content, 0, copiedCount);
            expected.write("tail".getBytes(StandardCharsets.US_ASCII));
            assertArrayEquals(expected.toByteArray(), peer.readPayloads(expected.size()), "bytes the peer read");
            regionSent.sync();
            tailSent.sync();
            assertEquals(count, UcxNative.streamBytesSentFromFiles() - sentFromFilesBefore, "bytes sent by sendfile");

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
     * Each frame queued to leave by sendfile holds a descriptor of the region's file of its own, so that the region
     * may be released (and its file closed) first. Closing the channel while such frames wait for a peer that reads
     * nothing, and the peer then going, lets go of every one of them.
     */
    @Test
    @Timeout(60)
    void framesWaitingToLeaveBySendfileLetGoOfTheFileWhenTheConnectionEnds(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("large");
        long length = 64L << 20;
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(length);
        }
        String target = file.toRealPath().toString();
        long connectionsBefore = NativeConnections.settled();
        try (RawPeer peer = new RawPeer(server)) {
            UcxSocketChannel channel = (UcxSocketChannel) accepted.poll(10, TimeUnit.SECONDS);
            assertNotNull(channel, "no channel accepted");
            DefaultFileRegion region = new DefaultFileRegion(file.toFile(), 0, length);
            ChannelFuture sent = channel.writeAndFlush(region);
            assertTrue(Await.transferStalled(region, 10, TimeUnit.SECONDS), "the region started");
            assertTrue(descriptorsOf(target) > 1, "the frames waiting hold no descriptor of the file of their own");

            channel.close().sync();
            assertTrue(sent.await(10, TimeUnit.SECONDS), "the region's write completed");
            assertFalse(sent.isSuccess(), "the region's write succeeded");
            assertEquals(0, region.refCnt(), "the region is released");
        }
        NativeConnections.assertBackTo(connectionsBefore, 20, "the connection is freed");
        assertEquals(0, descriptorsOf(target), "descriptors of the file left open");
    }

    private static long descriptorsOf(String target) {
        return OpenDescriptors.targets().stream().filter(target::equals).count();
    }

    @Test
    @Timeout(30)
    void aFrameOfUnknownTypeClosesTheChannelWithAProtocolError() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            peer.out.writeInt(3 << TYPE_SHIFT | 4);
            peer.out.writeInt(0);
            peer.out.flush();
            assertProtocolErrorAndClose(peer);
        }
    }

    @Test
    @Timeout(30)
    void aDataFrameLargerThanAReceiveSlotClosesTheChannelWithAProtocolError() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            int slotBytes = UcxSocketChannelConfig.DEFAULT_RECV_UNIT + CREDIT_HEADER_BYTES;
            peer.out.writeInt(DATA << TYPE_SHIFT | (slotBytes + 1));
            peer.out.write(new byte[64]);
            peer.out.flush();
            assertProtocolErrorAndClose(peer);
        }
    }

    @Test
    @Timeout(30)
    void aPeerThatDiesInTheMiddleOfAFrameIsAResetAndLeavesNothingBehind() throws Exception {
        long connectionsBefore = NativeConnections.settled();
        try (RawPeer peer = new RawPeer(server)) {
            sendAMessageAndTheStartOfAnother(peer);
        }
        Object failure = events.poll(10, TimeUnit.SECONDS);
        assertInstanceOf(IOException.class, failure);
        assertTrue(((IOException) failure).getMessage().contains("Connection reset by peer"), failure.toString());
        assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
        NativeConnections.assertBackTo(connectionsBefore, 20, "none left allocated");
    }

    @Test
    @Timeout(30)
    void aPeerThatResetsTheConnectionIsNamedInTheError() throws Exception {
        try (RawPeer peer = new RawPeer(server)) {
            sendAMessageAndTheStartOfAnother(peer);
            peer.socket.setSoLinger(true, 0);
        }
        Object failure = events.poll(10, TimeUnit.SECONDS);
        assertInstanceOf(IOException.class, failure);
        assertTrue(((IOException) failure).getMessage().startsWith("Connection lost: Connection reset by peer"),
                failure.toString());
        assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
    }

    /**
     * A peer that keeps the socket full keeps the server's loop reading: each receive the channel
     * reposts takes the next frame waiting in the socket, which lists the connection ready again while
     * the loop is still dispatching it. Those entries wait for the loop's next call. Dispatched within
     * the same call, they grew the worker's ready list past its end for as long as the peer kept
     * sending (a crash in the benchmark's long 64 KiB x 16 runs). One connection per loop leaves the
     * list room for two entries, so a list that grows shows at once, as an overflow the loop counts.
     */
    @Test
    @Timeout(60)
    void aPeerKeepingTheSocketFullNeverOverrunsTheLoopsReadyList() throws Exception {
        EventLoopGroup oneConnectionLoop = new UcxEventLoopGroup(1, new UcxIoHandlerConfig().maxConnectionsPerLoop(1));
        try {
            Channel smallServer = bindRecordingServer(new ServerBootstrap().group(oneConnectionLoop)
                    .childOption(UcxChannelOption.UCX_RECV_WINDOW, 2));
            String[] texts = new String[4000];
            for (int i = 0; i < texts.length; i++) {
                texts[i] = String.format("%06d", i).repeat(170);
            }
            try (RawPeer peer = new RawPeer(smallServer)) {
                UcxSocketChannel channel = (UcxSocketChannel) accepted.poll(10, TimeUnit.SECONDS);
                assertNotNull(channel, "no channel accepted");
                CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                    try {
                        peer.writeAtOnce(texts);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                assertReads(String.join("", texts));
                writing.get(10, TimeUnit.SECONDS);
                int overflows = channel.eventLoop()
                        .submit(() -> channel.registration().worker().readyListOverflows()).get(10, TimeUnit.SECONDS);
                assertEquals(0, overflows, "the ready list overflowed");
            }
            smallServer.close().sync();
        } finally {
            oneConnectionLoop.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
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

    /** A whole message, which the channel must read, then 10 bytes of a 1,000-byte frame. */
    private void sendAMessageAndTheStartOfAnother(RawPeer peer) throws Exception {
        peer.sendData("whole");
        assertEquals("whole", events.poll(10, TimeUnit.SECONDS));
        peer.out.writeInt(DATA << TYPE_SHIFT | 1000);
        peer.out.write(new byte[10]);
        peer.out.flush();
    }

    private void assertProtocolErrorAndClose(RawPeer peer) throws Exception {
        Object failure = events.poll(10, TimeUnit.SECONDS);
        assertInstanceOf(IOException.class, failure);
        assertTrue(((IOException) failure).getMessage().contains("malformed frame"), failure.toString());
        assertEquals("inactive", events.poll(10, TimeUnit.SECONDS));
        assertEquals(-1, peer.readToEnd(), "the server did not close the connection");
    }

    /** Puts what the accepted channel reads (as text), its first exception and its end into {@link #events}. */
    private final class Recorder extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            events.add(buf.toString(StandardCharsets.US_ASCII));
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

    /**
     * A peer written by hand: a plain socket that speaks protocol 4's handshake (docs/protocol.md) and then frames.
     * By default it is a netty-ucx client without a secret that trusts the server and insists on the TCP data path.
     */
    private static final class RawPeer implements AutoCloseable {
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
            write(UcxHandshake.encodeClientIntro(trust.ownNonce()));
            byte[] intro = new byte[UcxHandshake.SERVER_INTRO_BYTES];
            in.readFully(intro);
            serverIntro = UcxHandshake.decodeIntro(ByteBuffer.wrap(intro), true, trust.ownNonce());
            assertNotNull(serverIntro, "a whole server intro that decodes to nothing");
            trust.peerNonce(serverIntro.nonce);
        }

        /** Our hello: {@code proof} first, no worker address (none goes out before the data path is chosen). */
        void sendHello(int flags, byte[] proof) throws IOException {
            write(UcxHandshake.encodeHello(flags, 7, 0, 0, 4, UcxSocketChannelConfig.DEFAULT_RECV_UNIT, proof));
        }

        /** The server's hello: 40 bytes, no proof; on the TCP data path frames follow it, no address. */
        UcxHandshake.Hello readServerHello() throws IOException {
            byte[] hello = new byte[UcxHandshake.HELLO_BYTES];
            in.readFully(hello);
            serverHello = UcxHandshake.decodeHello(ByteBuffer.wrap(hello), false);
            assertNotNull(serverHello, "a whole server hello that decodes to nothing");
            return serverHello;
        }

        private void write(ByteBuffer bytes) throws IOException {
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
        }

        void sendData(String text) throws IOException {
            writeAtOnce(text);
        }

        /** Data frames for the texts, given to the socket in one write. */
        void writeAtOnce(String... texts) throws IOException {
            ByteArrayOutputStream frames = new ByteArrayOutputStream();
            for (String text : texts) {
                frames.write(dataFrame(text));
            }
            out.write(frames.toByteArray());
            out.flush();
        }

        static byte[] dataFrame(String text) {
            byte[] payload = text.getBytes(StandardCharsets.US_ASCII);
            return ByteBuffer.allocate(4 + CREDIT_HEADER_BYTES + payload.length)
                    .putInt(DATA << TYPE_SHIFT | (CREDIT_HEADER_BYTES + payload.length))
                    .putInt(0).putInt(0).put(payload).array(); // credits, and the message key (not checked on TCP)
        }

        void sendRecord(char type, int messages) throws IOException {
            out.writeInt(RECORD << TYPE_SHIFT | UcxHandshake.RECORD_BYTES);
            out.writeByte(type);
            out.writeInt(messages);
            out.flush();
        }

        String readData() throws IOException {
            int word = in.readInt();
            assertEquals(DATA, word >>> TYPE_SHIFT, "frame type");
            byte[] body = new byte[word & ((1 << TYPE_SHIFT) - 1)];
            in.readFully(body);
            return new String(body, CREDIT_HEADER_BYTES, body.length - CREDIT_HEADER_BYTES, StandardCharsets.US_ASCII);
        }

        /** Reads data frames until their payloads make {@code bytes}; each must fit the unit our hello gave. */
        byte[] readPayloads(int bytes) throws IOException {
            ByteArrayOutputStream payloads = new ByteArrayOutputStream(bytes);
            while (payloads.size() < bytes) {
                int word = in.readInt();
                int length = word & ((1 << TYPE_SHIFT) - 1);
                assertEquals(DATA, word >>> TYPE_SHIFT, "frame type");
                assertTrue(length >= CREDIT_HEADER_BYTES
                        && length <= UcxSocketChannelConfig.DEFAULT_RECV_UNIT + CREDIT_HEADER_BYTES, "frame length");
                byte[] body = new byte[length];
                in.readFully(body);
                payloads.write(body, CREDIT_HEADER_BYTES, length - CREDIT_HEADER_BYTES);
            }
            assertEquals(bytes, payloads.size(), "payload bytes");
            return payloads.toByteArray();
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
