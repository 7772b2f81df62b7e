/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.DatagramMulticastIPv6Test;

import java.util.List;

/**
 * Netty's {@link DatagramMulticastIPv6Test}, run on UCX datagram channels, with UCX and with NIO peers. Its group,
 * FF01::101, is interface-local: the kernel neither sends its datagrams onto the link nor reports the membership
 * (MLD), so nothing leaves the host. (Netty's IPv4 multicast test is not run: its group and probe go onto the
 * link; {@code UcxDatagramChannelTest} covers IPv4 multicast on the loopback interface instead.)
 */
@RequireUcx
class UcxDatagramMulticastIPv6Test extends DatagramMulticastIPv6Test {
    @Override
    protected List<BootstrapComboFactory<Bootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().datagram(socketInternetProtocalFamily());
    }
}
