/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.ServerSocketSuspendTest;

import java.util.List;

/**
 * Netty's {@link ServerSocketSuspendTest} on UCX server channels. Its only test is {@code @Disabled} upstream
 * (in 4.2.17), so nothing runs; the adapter is here so that it runs on UCX if it is enabled again. It connects
 * plain {@link java.net.Socket}s and counts accepted children by {@code channelActive}; a UCX child becomes
 * active only after its peer's hello, so it would then need UCX clients for its peers.
 */
@RequireUcx
class UcxServerSocketSuspendTest extends ServerSocketSuspendTest {
    @Override
    protected List<BootstrapFactory<ServerBootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().serverSocket();
    }
}
