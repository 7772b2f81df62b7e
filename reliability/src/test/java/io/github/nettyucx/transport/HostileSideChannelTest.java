/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxHandshake;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Peers that connect to the side channel (the TCP port a UCX server listens on) and do not speak the
 * protocol (v7) right: a wrong version, impossible lengths, a truncated hello, bad records after a valid hello; each
 * sends a valid intro and reads the server's first where the malformed part comes later. Each
 * must be refused with a logged reason, its connection only closed, and the server (a child JVM) must keep
 * serving its other connection and hold no native state for the refused one. Bytes that are not the hello's
 * magic (garbage, another protocol) are a plain TCP client: served, and nothing of it left once it closes.
 */
class HostileSideChannelTest extends AbstractProbedServerTest {
    /** Bytes that do not start with the hello's magic are a plain TCP client, which the echo server serves. */
    @Test
    void randomBytesAreServedAsPlainTcp() throws Exception {
        byte[] garbage = new byte[4096];
        new Random(1).nextBytes(garbage);
        garbage[0] = 'x'; // not the magic by chance
        assertServedAsPlainTcp(garbage);
    }

    @Test
    void anotherProtocolIsServedAsPlainTcp() throws Exception {
        assertServedAsPlainTcp("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** Three bytes of the magic, then others: plain TCP as well, every byte delivered. */
    @Test
    void aPrefixOfTheMagicIsServedAsPlainTcp() throws Exception {
        assertServedAsPlainTcp("NUCLEAR".getBytes(StandardCharsets.US_ASCII));
    }

    /** An intro of a version no release has: refused before anything else is said. */
    @Test
    void wrongVersion() throws Exception {
        ByteBuffer intro = RawHandshake.clientIntro();
        intro.putShort(4, (short) 99);
        assertRefused(intro, "unsupported netty-ucx protocol version 99");
    }

    /** The magic, then random bytes: a netty-ucx client by its first bytes, refused for what follows. */
    @Test
    void theMagicThenRandomBytesIsRefused() throws Exception {
        byte[] rest = new byte[200];
        new Random(3).nextBytes(rest);
        rest[0] = 0x7F; // a version no release has: 0x7F01
        rest[1] = 0x01;
        ByteBuffer intro = ByteBuffer.allocate(Integer.BYTES + rest.length);
        intro.putInt(UcxHandshake.MAGIC).put(rest).flip();
        assertRefused(intro, "unsupported netty-ucx protocol version " + 0x7F01);
    }

    /** A trusted client (this process: same user) that announces a worker address of 2 GiB. */
    @Test
    void hugeWorkerAddressLength() throws Exception {
        assertRefused(handshake -> {
            handshake.upToOurAddress();
            handshake.write(ByteBuffer.allocate(4).putInt(0, Integer.MAX_VALUE));
        }, "bad worker address length in handshake: " + Integer.MAX_VALUE);
    }

    @Test
    void negativeWorkerAddressLength() throws Exception {
        assertRefused(handshake -> {
            handshake.upToOurAddress();
            handshake.write(ByteBuffer.allocate(4).putInt(0, -5));
        }, "bad worker address length in handshake: -5");
    }

    /** Intros, then a hello with a receive window of 0. */
    @Test
    void zeroReceiveWindow() throws Exception {
        assertRefused(handshake -> {
            handshake.intro();
            handshake.write(RawHandshake.clientHello(RawHandshake.trustingFlags(), 0, 65536));
        }, "bad receive window in handshake: 0");
    }

    /**
     * A trusted client whose address message holds bytes that are not a UCP worker address. UCX 1.13 does not
     * validate a packed address: ucp_ep_create aborts the whole process on an assertion in ucp_address_unpack
     * ("addr version 9"); the transport checks the address's format version first and refuses it. (An untrusted
     * peer never gets this far: {@link UntrustedPeerTest}.)
     */
    @Test
    void garbageWorkerAddress() throws Exception {
        byte[] address = new byte[200];
        new Random(2).nextBytes(address);
        try (Socket socket = new Socket()) {
            socket.connect(server.address(), 5_000);
            RawHandshake handshake = new RawHandshake(socket);
            byte[] own = handshake.upToOurAddress().workerAddress;
            assertNotEquals(own[0] & 0x0F, address[0] & 0x0F,
                    "the garbage address has this UCX's address format version: ucp_ep_create would unpack it");
            handshake.write(handshake.addressMessage(address));
            assertTrue(closedByServer(socket, 10), "connection with a garbage worker address was not closed");
        }
        assertServerUnharmed("a garbage worker address");
    }

    /** Intros, then 30 of the hello's 64 bytes, then the client goes away. */
    @Test
    void truncatedHelloThenClose() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(server.address(), 5_000);
            RawHandshake handshake = new RawHandshake(socket);
            handshake.intro();
            byte[] hello = new byte[UcxHandshake.CLIENT_HELLO_BYTES];
            RawHandshake.validClientHello().get(hello);
            handshake.write(hello, 30);
            Thread.sleep(100);
        }
        assertServerUnharmed("a truncated hello");
    }

    /** A flood of bytes that are not the magic is a plain TCP client: echoed to the last byte, then gone. */
    @Test
    void megabytesOfGarbageAreServedAsPlainTcp() throws Exception {
        int total = 10 << 20;
        try (Socket socket = new Socket()) {
            socket.connect(server.address(), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
                byte[] junk = new byte[64 * 1024];
                Arrays.fill(junk, (byte) 0xFF);
                try {
                    for (int sent = 0; sent < total; sent += junk.length) {
                        out.write(junk);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            InputStream in = socket.getInputStream();
            byte[] chunk = new byte[64 * 1024];
            for (int received = 0; received < total;) {
                int n = in.read(chunk);
                assertTrue(n > 0, "the echo ended after " + received + " bytes");
                for (int i = 0; i < n; i++) {
                    assertEquals((byte) 0xFF, chunk[i], "byte " + (received + i));
                }
                received += n;
            }
            written.get(10, TimeUnit.SECONDS);
        }
        assertServerUnharmed("a flood of plain bytes");
    }

    @Test
    void unknownRecordTypeAfterValidHello() throws Exception {
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            peer.writeRecord((byte) 'X', 0);
            assertTrue(peer.awaitClosedByServer(10), "unknown record type not refused");
        }
        assertTrue(server.child().awaitOutput("unknown side-channel record type " + (int) 'X', 10),
                "no logged reason; server output:\n" + server.child().output());
        assertServerUnharmed("an unknown record type");
    }

    @Test
    void recordClaimingFewerMessagesThanArrived() throws Exception {
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address()).handshake()) {
            peer.main().send("one\n".getBytes(StandardCharsets.US_ASCII), 0, 0);
            peer.main().send("two\n".getBytes(StandardCharsets.US_ASCII), 1, 0);
            peer.progress(300);
            peer.writeRecord(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, 1);
            assertTrue(peer.awaitClosedByServer(10), "an impossible message count was not refused");
        }
        assertTrue(server.child().awaitOutput("peer claims 1 messages but 2 arrived", 10),
                "no logged reason; server output:\n" + server.child().output());
        assertServerUnharmed("an impossible message count");
    }

    /**
     * A client that sends part of its intro and then nothing would hold an accepted channel and a descriptor
     * until it goes away (as slowloris does to HTTP servers); the accepted channel's connect timeout (5 s on this
     * server) ends it. Nothing native is allocated for it meanwhile: the server creates its connection only for
     * a complete hello.
     */
    @Test
    @Timeout(120)
    void stalledHelloIsDroppedAfterATimeout() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(server.address(), 5_000);
            byte[] intro = new byte[UcxHandshake.INTRO_BYTES];
            RawHandshake.clientIntro().get(intro);
            new RawHandshake(socket).write(intro, 20);
            Thread.sleep(300);
            assertEquals(1, server.nativeConnections(), "native connections of the server during a stalled intro");
            assertTrue(closedByServer(socket, 30), "a stalled hello was still held open after 30 s");
        }
        assertServerUnharmed("a stalled hello");
    }

    /** What an attacker does on its connection, which the server must then close. */
    private interface Attack {
        void run(RawHandshake handshake) throws Exception;
    }

    private static void assertRefused(ByteBuffer bytes, String reason) throws Exception {
        assertRefused(handshake -> handshake.write(bytes), reason);
    }

    private static void assertRefused(Attack attack, String reason) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(server.address(), 5_000);
            socket.setSoTimeout(10_000);
            attack.run(new RawHandshake(socket));
            assertTrue(closedByServer(socket, 10), "not refused: " + reason);
        }
        assertTrue(server.child().awaitOutput(reason, 10),
                "the server did not log '" + reason + "'; its output:\n" + server.child().output());
        assertServerUnharmed(reason);
    }

    private static void assertServedAsPlainTcp(byte[] bytes) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(server.address(), 5_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            assertArrayEquals(bytes, socket.getInputStream().readNBytes(bytes.length), "the echo");
        }
        assertServerUnharmed("a plain TCP client");
    }

    /** True when the server ends the connection within {@code seconds} (its hello may come first). */
    private static boolean closedByServer(Socket socket, int seconds) throws IOException {
        socket.setSoTimeout(seconds * 1000);
        InputStream in = socket.getInputStream();
        byte[] discard = new byte[4096];
        try {
            while (in.read(discard) >= 0) {
                // What the server sent before it closed (its intro, its hello, its address).
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // reset
        }
    }
}
