/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxDataPathPolicy;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.jni.UcxNative;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Peers the server does not trust (issue 28, docs/security.md), each a Python client in a process of its own
 * ({@link HostileScript}) that claims to trust the server and sends a worker address anyway: forged, truncated,
 * with an impossible length, or replayed (a real UCX worker address). The server must never send its own address,
 * never call {@code ucp_ep_create} (its {@link Ucx#endpointsCreated()} does not move), choose the TCP data path for
 * the stranger (or refuse it), and keep serving its other clients.
 * <p>
 * Two servers (child JVMs): one that trusts no one ({@code -Dio.github.nettyucx.trust=none}), one that trusts only
 * peers that prove a shared key ({@code secret:KEY}, base64); with the latter, the wrong secret gets the TCP data
 * path and the right one UCX (one endpoint more).
 */
class UntrustedPeerTest {
    /** A random key, base64, as bin/ucx-keygen writes one (fixed: the child JVM gets it on its command line). */
    private static final String SECRET = "a8qYNFCVE+RezXP0ogPWvJmIz4OqoGcRNk/mqjChZvo=";
    private static final String WRONG_SECRET = "ZIIz8SAqx+vYzLRbUq/Ns7mHKA1prcovpaL8ZOpKWhM=";
    private static EventLoopGroup group;
    private static ProbedEchoServer trustsNone;
    private static ProbedEchoServer trustsSecret;

    @BeforeAll
    static void startServers() throws Exception {
        TestTransport.UCX.assumeAvailable();
        HostileScript.assumePython();
        group = TestTransport.UCX.newGroup(1);
        trustsNone = new ProbedEchoServer(group, "-Dio.github.nettyucx.trust=none");
        trustsSecret = new ProbedEchoServer(group, "-Dio.github.nettyucx.trust=secret:" + SECRET);
    }

    @AfterAll
    static void stopServers() throws Exception {
        for (ProbedEchoServer server : new ProbedEchoServer[] {trustsNone, trustsSecret}) {
            if (server != null) {
                server.close();
            }
        }
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }

    /**
     * The stranger's address message follows the hellos whatever the server said; on the TCP data path it is the
     * application's bytes (the echo server sends them back), not an address, and nothing of it reaches UCX.
     */
    @ParameterizedTest
    @ValueSource(strings = {"forged", "truncated", "huge", "replay"})
    void addressesOfAnUntrustedPeerNeverReachUcx(String mode) throws Exception {
        String address = mode.equals("replay") ? "replay:" + HexFormat.of().formatHex(realWorkerAddress()) : mode;
        long endpointsBefore = trustsNone.endpoints();
        String output;
        try (HostileScript client = HostileScript.start(trustsNone.address(), "handshake", "--address", address)) {
            output = client.awaitDone(20);
        }
        assertTcpDataPathWithoutAddress(output);
        assertTrue(output.contains("SENT_ADDRESS " + mode.split(":")[0]) || output.contains("CLOSED_BY_SERVER"),
                output);
        assertEquals(endpointsBefore, trustsNone.endpoints(), "ucp_ep_create was called for an untrusted peer");
        trustsNone.assertStillServing();
        trustsNone.assertOnlyHealthyConnectionLeft("after an untrusted peer sent a " + mode + " address");
    }

    /** A netty-ucx client is served all the same, over the TCP data path: no endpoint on either side. */
    @Test
    void aClientOfAServerThatTrustsNoOneIsServedOverTheTcpDataPath() throws Exception {
        long endpointsBefore = trustsNone.endpoints();
        assertEquals(0, trustsNone.echoWithNewClient(group, UcxTrust.anyPeer()),
                "this JVM created an endpoint to a server that trusts no one");
        assertEquals(endpointsBefore, trustsNone.endpoints(), "the server created an endpoint");
    }

    /**
     * A stranger with the wrong secret, which claims to trust the server: the server's proof does not check with
     * its secret, and the server does not trust it: TCP data path, no address, no endpoint.
     */
    @Test
    void theWrongSecretGetsTheTcpDataPath() throws Exception {
        long endpointsBefore = trustsSecret.endpoints();
        String output;
        try (HostileScript client = HostileScript.start(trustsSecret.address(), "handshake",
                "--secret", WRONG_SECRET, "--address", "forged")) {
            output = client.awaitDone(20);
        }
        assertTrue(output.contains("SERVER_INTRO") && output.contains("valid=false"),
                "the server's proof checked with the wrong secret:\n" + output);
        assertTcpDataPathWithoutAddress(output);
        assertEquals(endpointsBefore, trustsSecret.endpoints(), "ucp_ep_create was called for the wrong secret");
        trustsSecret.assertStillServing();
        trustsSecret.assertOnlyHealthyConnectionLeft("after a client with the wrong secret");
    }

    /**
     * The same client with the right secret: the server's proof checks, the server trusts it and sends its address
     * (the control that makes the test above mean something). The client never sends its own address: no endpoint.
     */
    @Test
    void theRightSecretIsTrusted() throws Exception {
        long endpointsBefore = trustsSecret.endpoints();
        String output;
        try (HostileScript client = HostileScript.start(trustsSecret.address(), "handshake", "--secret", SECRET)) {
            output = client.awaitDone(20);
        }
        assertTrue(output.contains("valid=true"), "the server's proof did not check with the secret:\n" + output);
        int flags = serverFlags(output);
        assertTrue((flags & UcxDataPathPolicy.FLAG_TRUSTS) != 0, "the server did not trust the secret:\n" + output);
        assertTrue(output.contains("SERVER_ADDRESS "), "no address from the server that trusts us:\n" + output);
        assertEquals(endpointsBefore, trustsSecret.endpoints(), "an endpoint without the client's address");
        trustsSecret.assertOnlyHealthyConnectionLeft("after a client with the right secret left");
    }

    /**
     * netty-ucx clients of this JVM: with the right secret over UCX (an endpoint on each side); with the wrong one
     * (and trusting the server anyway), over the TCP data path, no endpoint on either side.
     */
    @Test
    void nettyUcxClientsGetUcxOnlyWithTheSecret() throws Exception {
        byte[] secret = Base64.getDecoder().decode(SECRET);
        long endpointsBefore = trustsSecret.endpoints();
        assertEquals(1, trustsSecret.echoWithNewClient(group, UcxTrust.sharedSecret(secret)),
                "endpoints this JVM created for the client with the right secret");
        assertEquals(endpointsBefore + 1, trustsSecret.endpoints(), "the server's endpoints for the right secret");

        byte[] wrong = Base64.getDecoder().decode(WRONG_SECRET);
        assertEquals(0, trustsSecret.echoWithNewClient(group, UcxTrust.sharedSecret(wrong).or(UcxTrust.anyPeer())),
                "endpoints this JVM created for the client with the wrong secret");
        assertEquals(endpointsBefore + 1, trustsSecret.endpoints(), "the server's endpoints for the wrong secret");
        trustsSecret.assertStillServing();
    }

    /** The server's hello said it does not trust the client, leads to the TCP data path, and no address followed. */
    static void assertTcpDataPathWithoutAddress(String output) {
        int flags = serverFlags(output);
        int ours = 1 | 2 | UcxDataPathPolicy.FLAG_TRUSTS; // the script's default flags
        assertEquals(0, flags & UcxDataPathPolicy.FLAG_TRUSTS, "the server trusts the stranger:\n" + output);
        assertEquals(UcxDataPathPolicy.Choice.TCP, UcxDataPathPolicy.choose(ours, flags, true),
                "the data path the hellos lead to:\n" + output);
        assertTrue(output.contains("NO_ADDRESS"), "the server sent something after its hello:\n" + output);
        assertFalse(output.contains("SERVER_ADDRESS"), "the server sent its address to a stranger:\n" + output);
    }

    /** The flags of the server's hello, as the script printed them. */
    static int serverFlags(String output) {
        int at = output.indexOf("SERVER_HELLO flags=");
        assertTrue(at >= 0, "no server hello:\n" + output);
        String rest = output.substring(at + "SERVER_HELLO flags=".length());
        return Integer.parseInt(rest.substring(0, rest.indexOf(' ')));
    }

    /** The address of a real UCP worker (of this JVM, destroyed since): what a replaying attacker would send. */
    static byte[] realWorkerAddress() throws Exception {
        long worker = UcxNative.workerCreate(4);
        try {
            return UcxNative.workerAddress(worker);
        } finally {
            UcxNative.workerDestroy(worker);
        }
    }
}
