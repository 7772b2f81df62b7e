/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportHeaderTest {
    private static final ZonedDateTime STARTED = ZonedDateTime.of(2026, 11, 28, 9, 30, 15, 123_000_000,
            ZoneOffset.UTC);

    @Test
    void everyReportStartsWithTheSameList() {
        String md = ReportHeader.of("A title", "bin/bench echo --quick").started(STARTED)
                .load("0.10 0.20 0.30", "0.40 0.50 0.60").line("Runs", 5).markdown();
        String[] lines = md.split("\n", -1);
        assertEquals("# A title", lines[0]);
        assertEquals("", lines[1]);
        assertEquals("- Command: `bin/bench echo --quick`", lines[2]);
        assertEquals("- Date: 2026-11-28T09:30:15Z", lines[3], "to the second");
        assertTrue(lines[4].startsWith("- Machine: " + MachineFacts.cpuModel() + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs, "), lines[4]);
        assertTrue(lines[4].contains(", UCX "), lines[4]);
        assertEquals("- Load average (1, 5, 15 min): 0.10 0.20 0.30 before, 0.40 0.50 0.60 after", lines[5]);
        assertEquals("- Runs: 5", lines[6]);
        assertEquals("", lines[7]);
        assertFalse(md.contains("above the number of CPUs"));
    }

    @Test
    void saysWhenTheCoresWereOversubscribed() {
        String busy = (Runtime.getRuntime().availableProcessors() + 1) + ".00 0.00 0.00";
        String md = ReportHeader.of("t", "c").load("0.00 0.00 0.00", busy).markdown();
        assertTrue(md.contains("above the number of CPUs"), md);
    }

    @Test
    void leavesOutTheLoadWhenNotMeasured() {
        assertFalse(ReportHeader.of("t", "c").markdown().contains("Load average"));
    }
}
