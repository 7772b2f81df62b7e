/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.transport.testsuite.RequireUcx;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two real channels that trust each other by a shared secret, end to end: both proofs, both address MACs made and
 * checked (protocol 5), UCX endpoints, and an echo over them; with different secrets, the TCP data path and no
 * endpoint. {@link UcxConnectorTest} checks the same handshake without sockets, with bytes altered on the way.
 */
@RequireUcx
class SharedSecretEchoTest {
    private static final byte[] SECRET = "the echo test's secret, 32 bytes".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OTHER_SECRET = "another secret for the echo test".getBytes(StandardCharsets.US_ASCII);
    private static EventLoopGroup group;

    @BeforeAll
    static void start() {
        TestTransport.requireUcx();
        assumeTrue(!"always".equals(System.getProperty("io.github.nettyucx.tcpDataPath")),
                "every connection takes the TCP data path in this execution");
        group = new UcxEventLoopGroup(2);
    }

    @AfterAll
    static void stop() {
        if (group != null) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void theSameSecretOnBothSidesConnectsOverUcx() throws Exception {
        long endpoints = Ucx.endpointsCreated();
        long ucx = UcxTransportMetrics.connectionsOpened(UcxTransportMetrics.DataPath.UCX);
        echo(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        assertEquals(2, Ucx.endpointsCreated() - endpoints, "an endpoint on each side");
        assertEquals(2, UcxTransportMetrics.connectionsOpened(UcxTransportMetrics.DataPath.UCX) - ucx,
                "both ends opened over UCX");
    }

    @Test
    void differentSecretsConnectOverTheTcpDataPathWithoutAnEndpoint() throws Exception {
        long endpoints = Ucx.endpointsCreated();
        long tcp = UcxTransportMetrics.connectionsOpened(UcxTransportMetrics.DataPath.TCP_DATA_PATH);
        echo(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(OTHER_SECRET));
        assertEquals(0, Ucx.endpointsCreated() - endpoints, "no UCX endpoint between peers that do not trust");
        assertEquals(2, UcxTransportMetrics.connectionsOpened(UcxTransportMetrics.DataPath.TCP_DATA_PATH) - tcp);
    }

    /** 1 MiB from a client trusting by {@code clientTrust} to a server trusting by {@code serverTrust}, and back. */
    private static void echo(UcxTrust clientTrust, UcxTrust serverTrust) throws Exception {
        EchoChecker.echoThrough(new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                        .childOption(UcxChannelOption.TRUST, serverTrust),
                new Bootstrap().group(group).channel(UcxSocketChannel.class)
                        .option(UcxChannelOption.TRUST, clientTrust), 1 << 20);
    }
}
