/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a loop spins as its start-up does, on a clock, an event count and a compiler time of the test's own. */
class StartupSpinTest {
    private static final long EVENTS = 1_000;
    private static final long START = 1_000_000_000L;

    /** A compiler that finishes a compilation before every look: busy throughout. */
    private final AtomicLong compilerMillis = new AtomicLong();
    private final JitActivity jit = new JitActivity(compilerMillis::incrementAndGet);

    @Test
    void beginsAtTheFirstConnectionAndEndsAfterItsEvents() {
        StartupSpin startup = new StartupSpin(jit, EVENTS);
        assertFalse(startup.spins(START, 0, false), "a loop without connections waits as usual");
        assertFalse(startup.spins(START + 1_000_000, 500, false));
        long connected = START + 2_000_000;
        assertTrue(startup.spins(connected, 500, true), "the start-up begins with the first connection");
        assertTrue(startup.spins(connected + 1_000_000, 500 + EVENTS - 1, true));
        assertFalse(startup.spins(connected + 2_000_000, 500 + EVENTS, true), "its events are handled: over");
        assertFalse(startup.spins(connected + 3_000_000, 500 + EVENTS, true), "and over for good");
    }

    @Test
    void endsAfterItsTimeWhateverTheCount() {
        StartupSpin startup = new StartupSpin(jit, EVENTS);
        assertTrue(startup.spins(START, 0, true));
        assertTrue(startup.spins(START + StartupSpin.MAX_NANOS - 1, 10, true));
        assertFalse(startup.spins(START + StartupSpin.MAX_NANOS, 10, true), "slow peers: over in time");
        assertFalse(startup.spins(START + StartupSpin.MAX_NANOS + 1, 20, true));
    }

    @Test
    void spinsOnlyWhileTheCompilerWorks() {
        AtomicLong quietCompiler = new AtomicLong(42);
        StartupSpin startup = new StartupSpin(new JitActivity(quietCompiler::get), EVENTS);
        assertTrue(startup.spins(START, 0, true), "the first look counts the compiler as busy");
        long idle = START + JitActivity.BUSY_NANOS + JitActivity.SAMPLE_NANOS;
        assertFalse(startup.spins(idle, 10, true), "no compilation for a while: the loop waits as usual");
        quietCompiler.incrementAndGet();
        assertTrue(startup.spins(idle + JitActivity.SAMPLE_NANOS, 20, true),
                "a compilation brings the start-up's spinning back");
    }

    @Test
    void endsOnceOtherThreadsDriveTheLoop() {
        StartupSpin startup = new StartupSpin(jit, EVENTS);
        for (int i = 0; i < 2 * StartupSpin.OTHER_THREADS_TASKS; i++) {
            startup.taskFromOtherThread(); // the program's set-up: registering, connecting, before the start-up
        }
        assertTrue(startup.spins(START, 0, true), "tasks before the first connection do not count");
        for (int i = 0; i < StartupSpin.OTHER_THREADS_TASKS; i++) {
            startup.taskFromOtherThread();
        }
        assertTrue(startup.spins(START + 1_000, 10, true), "a few tasks from other threads leave it on");
        startup.taskFromOtherThread();
        assertFalse(startup.spins(START + 2_000, 20, true), "application threads drive the loop: over");
        assertFalse(startup.spins(START + 3_000, 30, true), "and over for good");
    }

    @Test
    void noStartUpWithoutEvents() {
        StartupSpin startup = new StartupSpin(jit, 0);
        assertFalse(startup.spins(START, 0, true));
        assertFalse(startup.spins(START + 1, 1, true));
    }
}
