/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketSslClientRenegotiateTest;

import java.util.List;

/**
 * Netty's {@link SocketSslClientRenegotiateTest}, run on UCX server and client channels. Its only test needs
 * OpenSSL (netty-tcnative) for the server side and is skipped by its own {@code @DisabledIf} where that is not
 * on the class path, as in this build.
 */
@RequireUcx
class UcxSocketSslClientRenegotiateTest extends SocketSslClientRenegotiateTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().socket();
    }
}
