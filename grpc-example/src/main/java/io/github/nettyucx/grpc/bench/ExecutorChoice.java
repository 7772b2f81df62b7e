/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

/**
 * Where gRPC runs application callbacks in the benchmark: {@code direct} on the event loop
 * ({@code directExecutor()}, no thread hand-off, so the transport's own cost shows), or {@code pool},
 * gRPC's default cached thread pool.
 */
final class ExecutorChoice {
    private ExecutorChoice() {
    }

    static boolean isDirect(String name) {
        switch (name) {
            case "direct":
                return true;
            case "pool":
                return false;
            default:
                throw new IllegalArgumentException("unknown executor '" + name + "': use direct or pool");
        }
    }
}
