/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;

/**
 * Where gRPC runs application callbacks in the benchmark, on the server and on the client's channel alike.
 * {@code direct}: on the event loop ({@code directExecutor()}), no thread hand-off, so the transport's own
 * cost shows. {@code default}: gRPC's default executor (a shared cached thread pool), what an application
 * gets when it says nothing, so the hand-offs between event loop and pool threads are part of each call.
 */
enum ExecutorChoice {
    DIRECT("direct"),
    DEFAULT("default");

    private final String id;

    ExecutorChoice(String id) {
        this.id = id;
    }

    static ExecutorChoice of(String id) {
        for (ExecutorChoice e : values()) {
            if (e.id.equals(id)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown executor '" + id + "': use direct or default");
    }

    String id() {
        return id;
    }

    NettyServerBuilder applyTo(NettyServerBuilder builder) {
        return this == DIRECT ? builder.directExecutor() : builder;
    }

    NettyChannelBuilder applyTo(NettyChannelBuilder builder) {
        return this == DIRECT ? builder.directExecutor() : builder;
    }
}
