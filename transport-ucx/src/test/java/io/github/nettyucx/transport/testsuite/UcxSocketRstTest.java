/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketRstTest;

import java.util.List;

/**
 * Netty's {@link SocketRstTest}, run on UCX server and client channels. Both tests close the server's child from
 * the test thread as soon as the client's connect has succeeded: on UCX the child has sent its hello by then
 * (that completed the client's connect) but has often not yet processed the client's, so they also check that
 * such an early close is an orderly end for the client, or a reset with {@code SO_LINGER} 0.
 */
@RequireUcx
class UcxSocketRstTest extends SocketRstTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().socket();
    }
}
