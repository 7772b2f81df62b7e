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

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 2,000 sockets that send only the magic "NUCX" and then nothing (a Python client, {@link HostileScript}), against
 * a server (child JVM) that allows {@value #MAX_PENDING} handshakes in progress in all and {@value #PER_ADDRESS} per
 * remote address, and gives a handshake {@value #HANDSHAKE_TIMEOUT_MILLIS} ms (longer than the test: the stallers
 * leave when they close, not when the server times them out). The stallers come from 127.0.0.2 to 127.0.0.5, 500
 * each, in that order: the first two addresses reach the per-address limit, the third the global one, the fourth is
 * refused altogether. The server must hold exactly {@value #MAX_PENDING} of them, refuse (close at once) the other
 * 1,500 with a (rate-limited) warning, allocate no native connection for any, stay within the memory budget, keep
 * serving its established client meanwhile, and serve new clients once the stallers are gone.
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
    void stalledHandshakesAreBoundedAndRefused() throws Exception {
        server.echoWithNewClient(group, null); // warm up the server's accept and handshake paths
        long rssBefore = server.rssBytes();
        try (HostileScript flood = HostileScript.start(server.address(), "flood", Integer.toString(FLOOD),
                "127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5")) {
            String result = flood.awaitLine("FLOOD", 30);
            Assumptions.assumeFalse(result.startsWith("_UNSUPPORTED"), "the flood cannot run here: " + result);
            long rssAfter = server.rssBytes();
            long budget = FLOOD * BUDGET_PER_SOCKET + BUDGET_NOISE;
            System.out.printf("flood: %s; server RSS %d -> %d KiB (+%d KiB, budget %d KiB)%n", result,
                    rssBefore >> 10, rssAfter >> 10, (rssAfter - rssBefore) >> 10, budget >> 10);

            assertEquals(MAX_PENDING, server.pendingHandshakes(), "handshakes the server holds");
            // Accepted in the order they connected: two addresses at the per-address limit, the third cut by the
            // global one, the fourth refused altogether.
            assertEquals("opened=" + FLOOD + " refused=" + (FLOOD - MAX_PENDING) + " failed_connects=0 kept="
                    + "127.0.0.2:" + PER_ADDRESS + ",127.0.0.3:" + PER_ADDRESS + ",127.0.0.4:"
                    + (MAX_PENDING - 2 * PER_ADDRESS) + ",127.0.0.5:0", result, "what the stallers saw");
            assertTrue(server.child().awaitOutput("Refused a connection from", 5),
                    "no warning about the refused connections; server output:\n" + server.child().output());
            assertEquals(1, server.nativeConnections(), "native connections (the established client's only)");
            assertTrue(rssAfter - rssBefore <= budget, "the server's RSS grew by " + ((rssAfter - rssBefore) >> 10)
                    + " KiB for " + FLOOD + " stalled handshakes; budget " + (budget >> 10) + " KiB");
            server.assertStillServing();

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
        server.assertStillServing();
        server.assertOnlyHealthyConnectionLeft("after the flood");
    }
}
