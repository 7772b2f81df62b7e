/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@link GrpcNettyPools} where grpc-netty's pool methods cannot be used: each builder still gets the shared group,
 * through the public method, with a reference that stays out (no UCX needed).
 */
class GrpcNettyPoolsTest {
    private final List<EventLoopGroup> made = new ArrayList<>();

    @AfterEach
    void shutDownWhatWasMade() {
        for (EventLoopGroup group : made) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    @Test
    void withoutThePoolMethodsTheBuildersTakeTheGroupsForGood() {
        GrpcNettyPools pools = new GrpcNettyPools(null, null, null,
                new NoSuchMethodException("NettyServerBuilder.bossEventLoopGroupPool(ObjectPool)"));
        assertFallsBack(pools);
    }

    @Test
    void aPoolMethodThatFailsFallsBackToo() throws Exception {
        // Not a method of the builders: invoking it on one throws IllegalArgumentException.
        var wrong = String.class.getMethod("length");
        assertFallsBack(new GrpcNettyPools(wrong, wrong, wrong, null));
    }

    private void assertFallsBack(GrpcNettyPools pools) {
        SharedGroup boss = shared("boss");
        SharedGroup worker = shared("worker");
        NettyServerBuilder server = NettyServerBuilder.forPort(0);
        assertSame(server, pools.server(server, boss, worker));
        assertEquals(1, boss.references());
        assertEquals(1, worker.references());
        NettyChannelBuilder channel = NettyChannelBuilder.forTarget("localhost:1");
        assertSame(channel, pools.channel(channel, worker));
        assertEquals(2, worker.references());
    }

    private SharedGroup shared(String name) {
        return new SharedGroup(name, () -> {
            EventLoopGroup group = new DefaultEventLoopGroup(1);
            made.add(group);
            return group;
        }, () -> { }, 0, 0, 0);
    }
}
