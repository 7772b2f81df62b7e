/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class YcsbOutputTest {
    @Test
    void parsesTheSummaryAndIgnoresEverythingElse() {
        YcsbOutput out = YcsbOutput.parse(String.join("\n",
                "Loading workload...",
                "2026-11-22 12:32:28:873 0 sec: 0 operations; est completion in 0 second",
                "2026-11-22 12:32:33:873 5 sec: 16097 operations; 3218.76 current ops/sec [READ: Count=1]",
                "2026-11-22 12:32:38:873 10 sec: 66097 operations; 10000 current ops/sec [READ: Count=1]",
                "2026-11-22 12:32:43:873 15 sec: 116097 operations; 10000 current ops/sec [READ: Count=1]",
                "[OVERALL], RunTime(ms), 20034",
                "[OVERALL], Throughput(ops/sec), 20993.2",
                "[TOTAL_GCS_G1_Young_Generation], Count, 3",
                "[READ], Operations, 100",
                "[READ], AverageLatency(us), 173.5",
                "[READ], 99thPercentileLatency(us), 745",
                "[READ], Return=OK, 98",
                "[READ], Return=NOT_FOUND, 2",
                "[CLEANUP], Operations, 4",
                "[READ-FAILED], Operations, 2",
                "[UPDATE], Operations, 5",
                "[UPDATE], Return=OK, 5"));
        assertEquals(20993.2, out.throughput());
        assertEquals(745, out.value("READ", "99thPercentileLatency(us)"));
        assertTrue(Double.isNaN(out.value("SCAN", "AverageLatency(us)")));
        assertEquals(Map.of("OK", 98L, "NOT_FOUND", 2L), out.returns("READ"));
        assertEquals(2, out.returned("READ", "NOT_FOUND"));
        assertEquals(0, out.returned("UPDATE", "ERROR"));
        assertEquals(List.of("READ", "UPDATE"), out.operations());
        assertEquals(10000.0, out.steadyThroughput(5));
        assertTrue(Double.isNaN(out.steadyThroughput(15)));
    }
}
