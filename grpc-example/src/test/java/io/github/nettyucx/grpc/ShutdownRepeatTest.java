/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

/**
 * The graceful shutdown of {@link ShutdownAndReconnectTest} again and again, each round over every transport,
 * in a rotating order (UCX last, first, in the middle): over UCX it used to lose the server's last answers
 * about once in 4-6 runs when it ran after the other transports (docs/reliability.md, bug 11).
 * {@code -Dnettyucx.grpc.shutdownRepeats=N} sets the rounds; 5 by default, 200 with
 * {@code -Dreliability.long=true}. The refusal of a new call during the shutdown is left to
 * {@code ShutdownAndReconnectTest}: with 2 busy processes on this 2-core machine it once came out as
 * DEADLINE_EXCEEDED instead of UNAVAILABLE over epoll, a race of the new call with the server's GOAWAY that
 * is not what this test repeats.
 */
@ExtendWith(LeakCheck.class)
class ShutdownRepeatTest {
    private static final int ROUNDS = Integer.getInteger("nettyucx.grpc.shutdownRepeats",
            Boolean.getBoolean("reliability.long") ? 200 : 5);
    private static final List<List<NettyTransport>> ORDERS = List.of(
            List.of(NettyTransport.NIO, NettyTransport.EPOLL, NettyTransport.UCX),
            List.of(NettyTransport.UCX, NettyTransport.NIO, NettyTransport.EPOLL),
            List.of(NettyTransport.EPOLL, NettyTransport.UCX, NettyTransport.NIO));

    @Test
    void gracefulShutdownAgainAndAgainInEveryOrder() throws Exception {
        TestTransports.assumeAvailable(NettyTransport.UCX);
        for (int round = 1; round <= ROUNDS; round++) {
            for (NettyTransport transport : ORDERS.get((round - 1) % ORDERS.size())) {
                if (transport.unavailabilityCause() != null) {
                    continue;
                }
                try {
                    ShutdownAndReconnectTest.gracefulShutdown(transport, false);
                } catch (AssertionError | Exception e) {
                    throw new AssertionError("round " + round + " of " + ROUNDS + " failed over " + transport.id()
                            + ": " + e, e);
                }
            }
        }
    }
}
