/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketMultipleConnectTest;

import java.util.List;

/**
 * Netty's {@link SocketMultipleConnectTest}, run on UCX server and client channels. Upstream it keeps only the
 * NIO combinations of Netty's own permutation; here every combination is a UCX one.
 */
@RequireUcx
class UcxSocketMultipleConnectTest extends SocketMultipleConnectTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().socket();
    }
}
