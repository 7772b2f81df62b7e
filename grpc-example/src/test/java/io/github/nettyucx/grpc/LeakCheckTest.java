/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;

/** The leak check itself: a buffer dropped without release must be reported, or the other tests prove nothing. */
@ExtendWith(LeakCheck.class)
class LeakCheckTest {

    @Test
    void reportsABufferThatWasNeverReleased() throws Exception {
        List<String> reports = List.of();
        for (int attempt = 0; attempt < 5 && reports.isEmpty(); attempt++) {
            leakOne();
            reports = LeakCheck.collectReports();
        }
        assertFalse(reports.isEmpty(), "a leaked buffer was not reported");
    }

    private static void leakOne() {
        ByteBuf lost = PooledByteBufAllocator.DEFAULT.directBuffer(128);
        lost.writeLong(42);
    }
}
