/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The graceful shutdown of {@link ShutdownAndReconnectTest} over UCX alone, first in its JVM's order of
 * transports and then again and again: it used to lose the server's last answers about once in 4-6 runs
 * (docs/reliability.md, bug 11). {@code -Dnettyucx.grpc.shutdownRepeats=N} sets the rounds; 5 by default,
 * 200 with {@code -Dreliability.long=true}.
 */
@ExtendWith(LeakCheck.class)
class ShutdownRepeatTest {
    private static final int ROUNDS = Integer.getInteger("nettyucx.grpc.shutdownRepeats",
            Boolean.getBoolean("reliability.long") ? 200 : 5);

    @Test
    void gracefulShutdownOverUcxAgainAndAgain() throws Exception {
        TestTransports.assumeAvailable(NettyTransport.UCX);
        for (int round = 1; round <= ROUNDS; round++) {
            try {
                ShutdownAndReconnectTest.gracefulShutdown(NettyTransport.UCX);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("round " + round + " of " + ROUNDS + " failed: " + e, e);
            }
        }
    }
}
