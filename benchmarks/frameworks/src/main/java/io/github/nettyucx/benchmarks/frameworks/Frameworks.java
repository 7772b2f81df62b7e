/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import java.util.List;

/** The frameworks by name. */
final class Frameworks {
    static final List<String> IDS = List.of(NettyAppFramework.ID, GrpcFramework.ID, ReactorNettyFramework.ID,
            VertxFramework.ID);

    private Frameworks() {
    }

    static Framework of(String id) {
        switch (id) {
            case NettyAppFramework.ID:
                return new NettyAppFramework();
            case GrpcFramework.ID:
                return new GrpcFramework();
            case ReactorNettyFramework.ID:
                return new ReactorNettyFramework();
            case VertxFramework.ID:
                return new VertxFramework();
            default:
                throw new IllegalArgumentException("unknown framework '" + id + "': use one of " + IDS);
        }
    }
}
