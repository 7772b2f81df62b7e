/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MachineFactsTest {
    @Test
    void describesThisMachine() {
        assertFalse(MachineFacts.cpuModel().isBlank());
        String load = MachineFacts.loadAverage();
        assertTrue(load.equals("unknown") || load.matches("[0-9.]+ [0-9.]+ [0-9.]+"), load);
        assertFalse(MachineFacts.ucxVersion().isBlank());
    }

    @Test
    void overloadedMeansMoreLoadThanCores() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertTrue(MachineFacts.overloaded((cores + 0.5) + " 0.00 0.00"));
        assertFalse(MachineFacts.overloaded((cores - 0.5) + " 99.0 99.0"));
        assertFalse(MachineFacts.overloaded("unknown"));
        assertFalse(MachineFacts.overloaded(""));
        assertTrue(MachineFacts.overloaded("unknown", (cores + 1) + " 0.00 0.00"), "any of them");
        assertFalse(MachineFacts.overloaded());
    }
}
