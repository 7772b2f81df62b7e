/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.TrafficShapingHandlerTest;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.List;

/**
 * Netty's {@link TrafficShapingHandlerTest}, run on UCX server and client channels. It asserts rates measured
 * over a few seconds (for example "Overall Traffic not ok since &lt; 3: 2.42"), which a busy 2-core machine
 * misses now and then on any transport: it failed once in 12 runs here at a load average of 5, and Netty's
 * own NIO run of it timed out on this machine. So it runs with the long tests only
 * ({@code -Dnettyucx.longTests=true}, docs/development.md), not in every build.
 */
@RequireUcx
@EnabledIfSystemProperty(named = "nettyucx.longTests", matches = "true",
        disabledReason = "asserts measured rates; runs with -Dnettyucx.longTests=true")
class UcxTrafficShapingHandlerTest extends TrafficShapingHandlerTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().socket();
    }
}
