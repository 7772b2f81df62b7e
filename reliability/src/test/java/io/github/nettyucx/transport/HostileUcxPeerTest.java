/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Peers that complete a valid handshake and then break the UCX half of the protocol with tagged messages
 * ({@link RawUcxPeer}): messages longer than a receive slot or shorter than the header, messages outside the
 * credit window, impossible credits, messages aimed at another connection. The server (a child JVM, see
 * {@link ProbedEchoServer}) must close that connection only, say why, and keep serving the others intact.
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
     * Valid messages, but the whole second window before a single credit came back: the server has posted
     * no receive for them. (Messages after ones the server already consumed could be within credits it
     * returned meanwhile, which is why the test starts beyond the window.)
     */
    @Test
    void messagesBeyondTheCreditWindow() throws Exception {
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            int window = peer.serverHello().recvWindow;
            for (int seq = window; seq < 2 * window; seq++) {
                peer.main().send(1000, seq, 0, (byte) 'c');
            }
            assertTrue(peer.awaitClosedByServer(10), "a peer sending beyond its credit was not disconnected");
        }
        assertServerUnharmed("messages beyond the credit window");
    }

    /** The same sequence number twice: the second copy can never be consumed. */
    @Test
    void repeatedSequenceNumber() throws Exception {
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            peer.main().send("first\n".getBytes(StandardCharsets.US_ASCII), 0, 0);
            peer.main().send("again\n".getBytes(StandardCharsets.US_ASCII), 0, 0);
            assertTrue(peer.awaitClosedByServer(10), "a repeated sequence number was not refused");
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
     * A message is matched by its tag alone, not by the endpoint it came from, and the tag starts with the
     * receiving connection's id: a peer that learned the server's worker address (every hello carries it)
     * aims messages at the id just below its own. Ids are random, so that is not another client's connection
     * and nothing arrives in the victim's stream. (A peer that guesses a live id among 2^32 still could:
     * see docs/security.md.)
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
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            int victimId = peer.serverHello().connectionId - 1;
            RawUcxPeer.Conn aimed = peer.aimAt(victimId);
            aimed.send("INJECTED\n".getBytes(StandardCharsets.US_ASCII), 0, 0);
            peer.progress(1000);
        } finally {
            Thread.sleep(500);
            victim.close().sync();
        }
        assertEquals("", victimReceived.toString(), "bytes the victim never sent were echoed to it");
        assertServerUnharmed("messages aimed at another connection");
    }
}
