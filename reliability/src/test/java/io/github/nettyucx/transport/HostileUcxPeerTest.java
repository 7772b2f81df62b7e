/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Peers that complete a valid handshake and then break the UCX half of the protocol with tagged messages
 * ({@link RawUcxPeer}): messages longer than a receive slot or shorter than the header, messages outside the
 * credit window, impossible credits, messages aimed at another connection. The server (a child JVM, see
 * {@link ProbedEchoServer}) must close that connection only where it can tell it is the sender's (a message its
 * receive took), say why, and keep serving the others intact; a message no receive wanted (a stray) is dropped and
 * counted and closes nothing.
 */
class HostileUcxPeerTest extends AbstractProbedServerTest {
    @Test
    void messageLongerThanAReceiveSlot() throws Exception {
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            peer.main().send(128 * 1024, 0, 0, (byte) 'x');
            assertTrue(peer.awaitClosedByServer(10), "an oversized message did not close the connection");
        }
        assertTrue(server.child().awaitOutput("UCX receive failed", 10),
                "no reason reported; server output:\n" + server.child().output());
        assertServerUnharmed("an oversized message");
    }

    @Test
    void messageShorterThanItsHeader() throws Exception {
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            peer.main().send(-UcxNative.HEADER_BYTES, 0, 0, (byte) 0);
            assertTrue(peer.awaitClosedByServer(10), "a message without header did not close the connection");
        }
        assertServerUnharmed("a message shorter than its header");
    }

    /**
     * Valid messages, but of the second window (up to 64 of them) before a single credit came back: the server
     * has posted no receive for them. (Messages after ones the server already consumed could be within credits it
     * returned meanwhile, which is why the test starts beyond the window.) They are strays: UCX does not tell who
     * sent them, so the server drops and counts them and closes nothing (anyone who learned a connection's tag could
     * otherwise close it).
     */
    @Test
    void messagesBeyondTheCreditWindow() throws Exception {
        long straysBefore = server.strays();
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            int window = peer.serverHello().recvWindow;
            int sent = Math.min(window, 64);
            for (int seq = window; seq < window + sent; seq++) {
                peer.main().send(1000, seq, 0, (byte) 'c');
            }
            assertStraysCounted(straysBefore, sent);
            assertFalse(peer.awaitClosedByServer(1), "messages beyond the credit window closed the connection; "
                    + "server output:\n" + server.child().output());
        }
        assertServerUnharmed("messages beyond the credit window");
    }

    /** The same sequence number twice: the second copy can never be consumed; it is a stray, dropped and counted. */
    @Test
    void repeatedSequenceNumber() throws Exception {
        long straysBefore = server.strays();
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            peer.main().send("first\n".getBytes(StandardCharsets.US_ASCII), 0, 0);
            peer.progress(200);
            peer.main().send("again\n".getBytes(StandardCharsets.US_ASCII), 0, 0);
            assertStraysCounted(straysBefore, 1);
            assertFalse(peer.awaitClosedByServer(1), "a repeated sequence number closed the connection; "
                    + "server output:\n" + server.child().output());
        }
        assertServerUnharmed("a repeated sequence number");
    }

    /** Credits for receive slots that do not exist: the server would send beyond the peer's window. */
    @Test
    void impossibleCredits() throws Exception {
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            peer.main().send("hello\n".getBytes(StandardCharsets.US_ASCII), 0, 1_000_000);
            assertTrue(peer.awaitClosedByServer(10), "impossible credits were accepted");
        }
        assertServerUnharmed("impossible credits");
    }

    /**
     * A message is matched by its tag alone, not by the endpoint it came from. A peer that learned the server's
     * worker address (it is trusted: same user) and the id of another client's connection (here read through the
     * server's IDS test hook, as a sniffer of the clear-text hellos would) aims a message at it, with the sequence
     * number the victim's next message would have. The tag must carry more than the id (a per-connection secret,
     * issue 28): the message matches nothing, is dropped and counted, and the victim neither receives it (echoed
     * back) nor is closed.
     */
    @Test
    void messagesAimedAtAnotherConnection() throws Exception {
        StringBuffer victimReceived = new StringBuffer();
        Channel victim = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new SimpleChannelInboundHandler<ByteBuf>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                        victimReceived.append(msg.toString(StandardCharsets.US_ASCII));
                    }
                })
                .connect(server.address()).sync().channel();
        try {
            long victimId = server.connectionIdOf(((InetSocketAddress) victim.localAddress()).getPort());
            assertNotEquals(0, victimId, "the victim is on the TCP data path: no UCX connection id to aim at");
            long straysBefore = server.strays();
            try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
                RawUcxPeer.Conn aimed = peer.aimAt((int) victimId);
                aimed.send("INJECTED\n".getBytes(StandardCharsets.US_ASCII), 0, 0);
                peer.progress(1000);
                assertEquals("", victimReceived.toString(), "bytes the victim never sent were echoed to it");
                assertTrue(victim.isActive(), "the victim's connection was closed; server output:\n"
                        + server.child().output());
                assertStraysCounted(straysBefore, 1);
            }
        } finally {
            victim.close().sync();
        }
        assertServerUnharmed("messages aimed at another connection");
    }

    /**
     * A message with a victim's whole tag (its id and tag secret, read through the test hook as a sniffer of the
     * clear-text hellos would) but not the message key its header must carry: the receive that takes it drops it
     * as a stray and is posted again, so the victim neither receives the bytes nor loses the message that really
     * has that sequence number. The first copy reaches a victim that is parked (no receive posted: the message is
     * held until it wakes), the second one a victim that has just received (its receive posted, unless it parked
     * again meanwhile).
     */
    @Test
    void aMessageWithAnotherConnectionsTagButNotItsKey() throws Exception {
        BlockingQueue<String> victimReceived = new LinkedBlockingQueue<>();
        Channel victim = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new LineReceiver(victimReceived))
                .connect(server.address()).sync().channel();
        try {
            ProbedEchoServer.ConnectionTag tag = server.tagOf(((InetSocketAddress) victim.localAddress()).getPort());
            assertNotEquals(0, tag.id, "the victim is on the TCP data path: no UCX tag to aim at");
            long straysBefore = server.strays();
            try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
                int wrongKey = peer.serverHello().messageKey;
                assertNotEquals(tag.messageKey, wrongKey, "two connections drew the same key");
                RawUcxPeer.Conn aimed = peer.aimAt((int) tag.id, tag.tagSecret, wrongKey);
                for (int seq = 0; seq < 2; seq++) {
                    aimed.send(("INJECTED " + seq + "\n").getBytes(StandardCharsets.US_ASCII), seq, 0);
                    assertStraysCounted(straysBefore, seq + 1);
                    victim.writeAndFlush(Unpooled.copiedBuffer("real " + seq + "\n", StandardCharsets.US_ASCII));
                    assertEquals("real " + seq, victimReceived.poll(10, TimeUnit.SECONDS),
                            "the victim's own message did not come back first; server output:\n"
                                    + server.child().output());
                }
                peer.progress(200);
                assertNull(victimReceived.poll(), "bytes the victim never sent were echoed to it");
                assertTrue(victim.isActive(), "the victim's connection was closed; server output:\n"
                        + server.child().output());
            }
        } finally {
            victim.close().sync();
        }
        assertServerUnharmed("a message with another connection's tag but not its key");
    }

    /** Waits up to 5 s for the server process to count at least {@code expected} more strays. */
    private static void assertStraysCounted(long before, int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long counted;
        while ((counted = server.strays() - before) < expected && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(counted >= expected, "the server counted " + counted + " strays, expected " + expected
                + "; its output:\n" + server.child().output());
    }
}
