/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxWorker;
import io.github.nettyucx.loop.UcxWorkerKey;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An endpoint is shared only with peers that proved they own its worker (docs/protocol.md#endpoints): a trusted
 * peer ({@link RawUcxPeer}, same user) that sends the worker address of this JVM's healthy connection, whose
 * endpoint the server already has, gets an endpoint of its own when it names its own owner key, and is refused when
 * it names that worker's owner key, which it cannot prove. The healthy connection keeps working throughout. Before
 * owner keys, the server found its endpoint by the address alone and gave it to the stranger's connection.
 */
class EndpointOwnershipTest {
    private static EventLoopGroup group;
    private static ProbedEchoServer server;

    @BeforeAll
    static void startServer() throws Exception {
        TestTransport.UCX.assumeAvailable();
        group = TestTransport.UCX.newGroup(1);
        server = new ProbedEchoServer(group, "-Dio.github.nettyucx.trust=same-user");
    }

    @AfterAll
    static void stopServer() throws Exception {
        ProbedEchoServer.stop(server, group);
    }

    @Test
    @Timeout(60)
    void anotherWorkersAddressUnderOurOwnKeyGetsAnEndpointOfItsOwn() throws Exception {
        byte[] victim = victimWorker().workerAddress();
        long open = server.openEndpoints();
        long created = server.endpoints();
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address())) {
            peer.handshake(address -> victim, false);
            awaitEndpoints(created + 1);
            assertEquals(open + 1, server.openEndpoints(), "the stranger's connection took the endpoint of the "
                    + "worker whose address it sent instead of one of its own");
        }
        server.assertStillServing();
    }

    @Test
    @Timeout(60)
    void anotherWorkersAddressUnderItsOwnerKeyIsRefused() throws Exception {
        UcxWorker victim = victimWorker();
        byte[] victimAddress = victim.workerAddress();
        byte[] victimKey = victim.ownerKey().publicKey();
        long open = server.openEndpoints();
        long created = server.endpoints();
        try (RawUcxPeer peer = RawUcxPeer.connect(server.address())) {
            peer.handshake(address -> victimAddress, false, victimKey);
            assertTrue(peer.awaitClosedByServer(10), "the server kept a peer that claimed another worker's key");
        }
        assertEquals(created, server.endpoints(), "ucp_ep_create for a peer that did not prove the owner key");
        assertEquals(open, server.openEndpoints());
        server.assertStillServing();
        server.assertOnlyHealthyConnectionLeft("after a peer claimed another worker's owner key");
    }

    @Test
    void aKeyThatGivesNoSecretIsRefused() {
        // The all-zero u-coordinate is a small-order point: X25519 with it gives no secret.
        assertThrows(java.net.ProtocolException.class, () -> new UcxWorkerKey().secretWith(new byte[32]));
    }

    /** The worker of this JVM's healthy connection, whose endpoint the server has. */
    private static UcxWorker victimWorker() throws Exception {
        UcxSocketChannel healthy = (UcxSocketChannel) server.healthy();
        return healthy.eventLoop().submit(() -> {
            UcxWorker worker = healthy.registration().worker();
            worker.workerAddress();
            worker.ownerKey();
            return worker;
        }).get(10, TimeUnit.SECONDS);
    }

    private static void awaitEndpoints(long created) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.endpoints() < created && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(created, server.endpoints(), "the server did not connect to the address the peer sent");
    }
}
