/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a loop counts the JIT compiler as busy, on a clock and a compiler time of the test's own. */
class JitActivityTest {
    private final AtomicLong compilerMillis = new AtomicLong(1_000);
    private final AtomicInteger reads = new AtomicInteger();
    private final JitActivity jit = new JitActivity(() -> {
        reads.incrementAndGet();
        return compilerMillis.get();
    });

    @Test
    void busyFromTheFirstLookWhileCompilationsEnd() {
        long start = 1_000_000_000L;
        assertTrue(jit.busy(start), "a JVM that compiled before the loop started is warming up");
        long compiled = start + JitActivity.SAMPLE_NANOS;
        compilerMillis.addAndGet(5);
        assertTrue(jit.busy(compiled));
        assertTrue(jit.busy(compiled + JitActivity.BUSY_NANOS - JitActivity.SAMPLE_NANOS),
                "busy until BUSY_NANOS after the last compilation seen");
        assertFalse(jit.busy(compiled + JitActivity.BUSY_NANOS + JitActivity.SAMPLE_NANOS),
                "no compilation ended for BUSY_NANOS: idle");
    }

    @Test
    void aLateCompilationMakesItBusyAgain() {
        long now = 5_000_000_000L;
        jit.busy(now);
        now += JitActivity.BUSY_NANOS + JitActivity.SAMPLE_NANOS;
        assertFalse(jit.busy(now));
        compilerMillis.addAndGet(1);
        now += JitActivity.SAMPLE_NANOS;
        assertTrue(jit.busy(now), "a recompilation (a deoptimised method, say) counts again");
    }

    @Test
    void readsTheCompilerAtMostOncePerSample() {
        long now = 0;
        for (int i = 0; i < 1_000; i++) {
            jit.busy(now + i * 1_000L);
        }
        assertEquals(1, reads.get(), "a million nanoseconds of spin rounds, one read");
        jit.busy(now + JitActivity.SAMPLE_NANOS);
        assertEquals(2, reads.get());
    }
}
