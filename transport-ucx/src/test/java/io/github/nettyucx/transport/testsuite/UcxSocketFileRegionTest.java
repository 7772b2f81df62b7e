/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketFileRegionTest;

import java.util.List;

/**
 * Netty's {@link SocketFileRegionTest}, run on UCX server and client channels: {@code DefaultFileRegion}s and
 * custom regions after a buffer in one flush, an empty region, void promises, reads with and without auto-read,
 * a region whose file is shorter than its count (the write fails with an {@code IOException}), and a region
 * that reports itself transferred early (no {@code transferTo} after that).
 */
@RequireUcx
class UcxSocketFileRegionTest extends SocketFileRegionTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().socket();
    }
}
