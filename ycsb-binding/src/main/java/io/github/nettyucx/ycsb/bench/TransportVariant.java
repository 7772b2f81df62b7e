/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb.bench;

import io.github.nettyucx.kvstore.KvTransport;

import java.util.List;
import java.util.Locale;

/**
 * A transport as the benchmark names it: {@code ucx}, {@code epoll}, {@code io_uring}, {@code nio},
 * or UCX with a given event loop wait strategy, {@code ucx-sleep}, {@code ucx-busy_poll},
 * {@code ucx-spin_then_sleep} (set in server and client JVMs through
 * {@code -Dio.github.nettyucx.waitStrategy}).
 */
record TransportVariant(String id, KvTransport transport, List<String> jvmOptions) {
    static TransportVariant of(String id) {
        String name = id.trim().toLowerCase(Locale.ROOT);
        if (name.startsWith("ucx-")) {
            String strategy = name.substring(4);
            if (!List.of("sleep", "busy_poll", "spin_then_sleep").contains(strategy)) {
                throw new IllegalArgumentException("unknown UCX wait strategy in " + id
                        + " (ucx-sleep, ucx-busy_poll or ucx-spin_then_sleep)");
            }
            return new TransportVariant(name, KvTransport.UCX, List.of("-Dio.github.nettyucx.waitStrategy=" + strategy));
        }
        return new TransportVariant(name, KvTransport.of(name), List.of());
    }
}
