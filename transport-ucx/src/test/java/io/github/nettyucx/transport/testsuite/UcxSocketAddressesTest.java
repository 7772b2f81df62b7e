/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketAddressesTest;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Netty's {@link SocketAddressesTest}, run on UCX server and client channels. The addresses of a UCX channel are
 * those of its side-channel TCP socket: each one the test sees must be a resolved IP address with a real port,
 * not the wildcard address.
 */
@RequireUcx
class UcxSocketAddressesTest extends SocketAddressesTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().socket();
    }

    @Override
    protected void assertAddress(SocketAddress address) {
        InetSocketAddress inet = assertInstanceOf(InetSocketAddress.class, address);
        assertFalse(inet.isUnresolved(), () -> "unresolved: " + inet);
        assertTrue(inet.getPort() > 0, () -> "no port: " + inet);
        assertFalse(inet.getAddress().isAnyLocalAddress(), () -> "wildcard address: " + inet);
    }
}
