/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.DatagramUnicastIPv6Test;

import java.util.List;

/** Netty's {@link DatagramUnicastIPv6Test}, run on UCX datagram channels, with UCX and with NIO peers. */
@RequireUcx
class UcxDatagramUnicastIPv6Test extends DatagramUnicastIPv6Test {
    @Override
    protected List<BootstrapComboFactory<Bootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().datagram(socketInternetProtocalFamily());
    }
}
