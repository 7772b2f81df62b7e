/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Numbers no peer may choose (issue 28, docs/protocol.md), each sent by a client in a process of its own: a receive
 * window of 2^31-1 and a receive unit of 0 in the hello (a Python client, {@link HostileScript}), endless records and
 * records after the close record on the side channel of a connection that completed its UCX handshake (a
 * {@link RawUcxPeer} in a child JVM: {@link ReliabilityPeer}'s hostile-records). Each is a protocol error: logged,
 * the connection closed, the server's other client served; a hello refused before the address exchange leaves no
 * endpoint ({@link Ucx#endpointsCreated()}) and no native connection behind.
 */
class HostileNumbersTest extends AbstractProbedServerTest {
    @BeforeAll
    static void needPython() throws Exception {
        HostileScript.assumePython();
    }

    @Test
    void hugeReceiveWindow() throws Exception {
        assertHelloRefused("--window", Integer.toString(Integer.MAX_VALUE),
                "bad receive window in handshake: " + Integer.MAX_VALUE);
    }

    @Test
    void zeroReceiveUnit() throws Exception {
        assertHelloRefused("--unit", "0", "bad receive unit in handshake: 0");
    }

    @Test
    void endlessRecords() throws Exception {
        assertRecordsRefused("endless", "a second shutdown-output record");
    }

    @Test
    void recordsAfterTheCloseRecord() throws Exception {
        assertRecordsRefused("after-close", "after the close record");
    }

    private static void assertHelloRefused(String option, String value, String reason) throws Exception {
        long endpointsBefore = server.endpoints();
        String output;
        try (HostileScript client = HostileScript.start(server.address(), "handshake", option, value)) {
            output = client.awaitDone(20);
        }
        assertTrue(output.contains("CLOSED_BY_SERVER server-hello"), "the server answered the hello:\n" + output);
        assertTrue(server.child().awaitOutput(reason, 10),
                "the server did not log '" + reason + "'; its output:\n" + server.child().output());
        assertEquals(endpointsBefore, server.endpoints(), "endpoints after a refused hello");
        assertServerUnharmed(reason);
    }

    private static void assertRecordsRefused(String kind, String reason) throws Exception {
        try (ChildJvm peer = ChildJvm.builder(ReliabilityPeer.class).name("hostile-records")
                .args("hostile-records", "127.0.0.1", Integer.toString(server.address().getPort()), kind).start()) {
            String closed = peer.awaitValue(ReliabilityPeer.CLOSED_BY_SERVER);
            assertTrue(closed.startsWith("true"), "the server did not close the connection (" + closed
                    + "); its output:\n" + server.child().output());
        }
        assertTrue(server.child().awaitOutput(reason, 10),
                "the server did not log '" + reason + "'; its output:\n" + server.child().output());
        assertServerUnharmed(reason);
    }
}
