/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 2,000 sockets that send only the magic "NUCX" and then nothing (a Python client, {@link HostileScript}), against
 * a server (child JVM) that allows {@value #MAX_PENDING} handshakes in progress in all and {@value #PER_ADDRESS} per
 * remote address, and gives a handshake {@value #HANDSHAKE_TIMEOUT_MILLIS} ms (longer than the test: the stallers
 * leave when they close, not when the server times them out). The stallers come from nine loopback addresses, 167
 * each, except 127.0.0.2 which opens four shares (668): it holds the most. Every socket is admitted; at the limits
 * the server sheds the oldest pending handshake of the address holding the most (at the per-address limit, that
 * address's own). So it must hold exactly {@value #MAX_PENDING} stallers, none of one address above
 * {@value #PER_ADDRESS}, close the other 1,500 with a (rate-limited) warning, allocate no native connection for any,
 * stay within the memory budget, and meanwhile serve its established client, a new netty-ucx client and a plain TCP
 * client (a raw socket sending HTTP-ish bytes), all three from 127.0.0.1, which floods nothing; and serve new clients
 * once the stallers are gone.
 * <p>
 * Memory budget, resident memory of the server process after the flood minus before it:
 * {@value #FLOOD} x {@value #BUDGET_PER_SOCKET} bytes (16 KiB per socket: a channel, its pipeline and its two 256-byte
 * side-channel buffers, with room to spare) + {@value #BUDGET_NOISE} bytes (64 MiB of JIT, GC and heap growth).
 * Before protocol v4 a pending handshake allocated about 1.1 MiB (receive window, send area, side-channel buffers):
 * 500 of them, 550 MiB, would exceed it.
 */
class HandshakeFloodTest {
    private static final int FLOOD = 2000;
    private static final int MAX_PENDING = 500;
    private static final int PER_ADDRESS = 200;
    private static final int HANDSHAKE_TIMEOUT_MILLIS = 120_000;
    private static final String SOURCES = "127.0.0.2,127.0.0.2,127.0.0.2,127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5,"
            + "127.0.0.6,127.0.0.7,127.0.0.8,127.0.0.9,127.0.0.10";
    private static final long BUDGET_PER_SOCKET = 16 * 1024;
    private static final long BUDGET_NOISE = 64L << 20;
    private static EventLoopGroup group;
    private static ProbedEchoServer server;

    @BeforeAll
    static void startServer() throws Exception {
        TestTransport.UCX.assumeAvailable();
        HostileScript.assumePython();
        group = TestTransport.UCX.newGroup(1);
        server = new ProbedEchoServer(group, "-Dpeer.maxPendingHandshakes=" + MAX_PENDING,
                "-Dpeer.maxPendingHandshakesPerAddress=" + PER_ADDRESS,
                "-Dpeer.handshakeTimeoutMillis=" + HANDSHAKE_TIMEOUT_MILLIS);
    }

    @AfterAll
    static void stopServer() throws Exception {
        ProbedEchoServer.stop(server, group);
    }

    @Test
    @Timeout(60)
    void stalledHandshakesAreBoundedAndShedWhileOthersAreServed() throws Exception {
        server.echoWithNewClient(group, null); // warm up the server's accept and handshake paths
        long rssBefore = server.rssBytes();
        try (HostileScript flood = HostileScript.start(server.address(), "flood", Integer.toString(FLOOD),
                SOURCES, Integer.toString(FLOOD - MAX_PENDING))) {
            String result = flood.awaitLine("FLOOD", 30);
            Assumptions.assumeFalse(result.startsWith("_UNSUPPORTED"), "the flood cannot run here: " + result);
            long rssAfter = server.rssBytes();
            long budget = FLOOD * BUDGET_PER_SOCKET + BUDGET_NOISE;
            System.out.printf("flood: %s; server RSS %d -> %d KiB (+%d KiB, budget %d KiB)%n", result,
                    rssBefore >> 10, rssAfter >> 10, (rssAfter - rssBefore) >> 10, budget >> 10);

            assertEquals(MAX_PENDING, server.pendingHandshakes(), "handshakes the server holds");
            assertTrue(result.startsWith("opened=" + FLOOD + " refused=" + (FLOOD - MAX_PENDING)
                    + " failed_connects=0 kept="), "what the stallers saw: " + result);
            // kept= names 127.0.0.2 once for each of its shares: count each address once.
            Map<String, Integer> kept = new TreeMap<>();
            for (String entry : result.substring(result.indexOf("kept=") + 5).split(",")) {
                String[] sourceAndCount = entry.split(":");
                kept.put(sourceAndCount[0], Integer.valueOf(sourceAndCount[1]));
            }
            assertEquals(MAX_PENDING, kept.values().stream().mapToInt(Integer::intValue).sum(), "kept: " + kept);
            for (Map.Entry<String, Integer> source : kept.entrySet()) {
                assertTrue(source.getValue() <= PER_ADDRESS, "kept: " + kept);
            }
            assertTrue(server.child().awaitOutput("Closed the oldest pending handshake from", 5),
                    "no warning about the shed handshakes; server output:\n" + server.child().output());
            assertEquals(1, server.nativeConnections(), "native connections (the established client's only)");
            assertTrue(rssAfter - rssBefore <= budget, "the server's RSS grew by " + ((rssAfter - rssBefore) >> 10)
                    + " KiB for " + FLOOD + " stalled handshakes; budget " + (budget >> 10) + " KiB");
            server.assertStillServing();
            // Every slot is held: newcomers that flood nothing are served all the same.
            assertEquals(1, server.echoWithNewClient(group, null), "a new netty-ucx client, over UCX");
            assertPlainTcpClientServed();
            // The first newcomer's slot was a staller's and went back when its handshake ended; the second found
            // that slot free.
            assertEquals(MAX_PENDING - 1, server.pendingHandshakes(), "handshakes the server holds after them");

            flood.send("CLOSE");
            flood.awaitLine("CLOSED", 10);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int pending;
        while ((pending = server.pendingHandshakes()) != 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(0, pending, "handshakes still counted after the stallers closed");
        server.echoWithNewClient(group, null);
        assertPlainTcpClientServed();
        server.assertStillServing();
        server.assertOnlyHealthyConnectionLeft("after the flood");
    }

    /** A plain TCP client (HTTP-ish bytes from a raw socket) gets its bytes echoed. */
    private static void assertPlainTcpClientServed() throws Exception {
        try (Socket plain = new Socket(server.address().getAddress(), server.address().getPort())) {
            plain.setSoTimeout(10_000);
            byte[] request = "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            plain.getOutputStream().write(request);
            assertEquals("GET / HTTP/1.0\r\n\r\n",
                    new String(plain.getInputStream().readNBytes(request.length), StandardCharsets.US_ASCII),
                    "a plain TCP client's echo; server output:\n" + server.child().output());
        }
    }
}
