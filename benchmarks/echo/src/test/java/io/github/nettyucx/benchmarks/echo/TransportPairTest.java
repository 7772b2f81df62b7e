/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransportPairTest {
    @Test
    void aTransportIdIsClientAndServer() {
        TransportPair p = TransportPair.of("ucx-tcp");
        assertEquals(NettyTransport.UCX_TCP, p.client());
        assertEquals(NettyTransport.UCX_TCP, p.server());
        assertFalse(p.mixed());
        assertEquals("ucx-tcp", p.id());
        assertEquals(" with {UCX_TLS=tcp}", p.settings());
    }

    @Test
    void aPairNamesTheClientThenTheServer() {
        TransportPair p = TransportPair.of("epoll-to-ucx");
        assertEquals(NettyTransport.EPOLL, p.client());
        assertEquals(NettyTransport.UCX, p.server());
        assertTrue(p.mixed());
        assertEquals("epoll-to-ucx", p.id());
        assertEquals(List.of(), p.clientJvmOptions(), "a UCX server serves plain clients without being asked");
        assertEquals("", p.settings());
    }

    @Test
    void idsWithDashesSplitAtTheSeparator() {
        TransportPair p = TransportPair.of("UCX-TCP-TO-io-uring");
        assertEquals(NettyTransport.UCX_TCP, p.client());
        assertEquals(NettyTransport.IO_URING, p.server());
        assertEquals("ucx-tcp-to-io_uring", p.id());
        assertEquals(" with client {UCX_TLS=tcp} " + TransportPair.PLAIN_TCP_FALLBACK, p.settings());
    }

    @Test
    void aUcxClientOfAPlainServerFallsBackToPlainTcp() {
        assertEquals(List.of(TransportPair.PLAIN_TCP_FALLBACK), TransportPair.of("ucx-to-epoll").clientJvmOptions());
        assertEquals(List.of(), TransportPair.of("ucx-to-ucx-tcp").clientJvmOptions());
        assertEquals(" with server {UCX_TLS=tcp}", TransportPair.of("ucx-to-ucx-tcp").settings());
        assertEquals(List.of(), TransportPair.of("ucx").clientJvmOptions());
    }

    @Test
    void aPairOfOneTransportIsThatTransport() {
        TransportPair p = TransportPair.of("epoll-to-epoll");
        assertFalse(p.mixed());
        assertEquals("epoll", p.id());
    }

    @Test
    void unknownTransportsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> TransportPair.of("epoll-to-tcp"));
        assertThrows(IllegalArgumentException.class, () -> TransportPair.of("epoll>ucx"));
    }
}
