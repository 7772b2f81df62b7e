/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.concurrent.TimeUnit;

/**
 * Tests that compare resources before and after against one UCX event loop of their class, warmed up first
 * ({@link LeakChecks#warmUp}) so that lazily created state does not count as a leak.
 */
abstract class AbstractWarmGroupTest {
    static EventLoopGroup group;

    @BeforeAll
    static void startGroup() throws Exception {
        TestTransport.UCX.assumeAvailable();
        group = TestTransport.UCX.newGroup(1);
        LeakChecks.warmUp(group);
    }

    @AfterAll
    static void stopGroup() throws InterruptedException {
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }
}
