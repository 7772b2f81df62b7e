/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BenchClientTest {
    @Test
    void flushBatches() {
        assertEquals(64, BenchClient.flushEvery(16));
        assertEquals(16, BenchClient.flushEvery(1024));
        assertEquals(4, BenchClient.flushEvery(65536));
        assertEquals(2, BenchClient.flushEvery(1 << 20));
    }
}
