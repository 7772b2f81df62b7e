/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.DatagramConnectedWriteExceptionTest;

import java.util.List;

/** Netty's {@link DatagramConnectedWriteExceptionTest}, run on a UCX datagram channel. */
@RequireUcx
class UcxDatagramConnectedWriteExceptionTest extends DatagramConnectedWriteExceptionTest {
    @Override
    protected List<BootstrapFactory<Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().datagramSocket();
    }
}
