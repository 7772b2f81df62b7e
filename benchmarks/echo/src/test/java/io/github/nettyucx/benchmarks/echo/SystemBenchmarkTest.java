/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SystemBenchmarkTest {
    @Test
    void eachKindOfBenchmarkRunsInItsOwnJvmsInPlanOrder() {
        List<BenchClient.Spec> plan = SystemBenchmark.plan(SystemBenchmark.Mode.FULL);
        List<List<BenchClient.Spec>> kinds = SystemBenchmark.byKind(plan);
        assertEquals(2, kinds.size());
        assertTrue(kinds.get(0).stream().allMatch(s -> s.kind.equals("pingpong")));
        assertTrue(kinds.get(1).stream().allMatch(s -> s.kind.equals("throughput")));
        List<BenchClient.Spec> joined = new ArrayList<>(kinds.get(0));
        joined.addAll(kinds.get(1));
        assertEquals(plan, joined);
    }

    @Test
    void streamsMeasureTheQuickThroughputCasesOnly() {
        List<BenchClient.Spec> streams = SystemBenchmark.plan(SystemBenchmark.Mode.STREAMS);
        List<BenchClient.Spec> quickThroughput = new ArrayList<>(SystemBenchmark.plan(SystemBenchmark.Mode.QUICK));
        quickThroughput.removeIf(s -> !s.kind.equals("throughput") || s.size == 16);
        assertEquals(quickThroughput.size(), streams.size());
        for (int i = 0; i < streams.size(); i++) {
            assertEquals(quickThroughput.get(i).size, streams.get(i).size);
            assertEquals(quickThroughput.get(i).connections, streams.get(i).connections);
            assertTrue(streams.get(i).count > quickThroughput.get(i).count, "measured longer than the quick case");
        }
    }
}
