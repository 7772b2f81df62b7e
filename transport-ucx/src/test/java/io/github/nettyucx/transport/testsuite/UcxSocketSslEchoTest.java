/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketSslEchoTest;

import java.util.List;

/**
 * Netty's {@link SocketSslEchoTest}, run on UCX server and client channels. Only UCX with UCX: its SSL
 * configurations over the two plain TCP combinations would add a minute to the suite, and TLS over plain TCP runs
 * in the suite's greeting and STARTTLS tests ({@link UcxSocketSslGreetingTest}, {@link UcxSocketStartTlsTest}) and
 * in {@code PlainTcpClientTest}.
 */
@RequireUcx
class UcxSocketSslEchoTest extends SocketSslEchoTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().ucxSocket();
    }
}
