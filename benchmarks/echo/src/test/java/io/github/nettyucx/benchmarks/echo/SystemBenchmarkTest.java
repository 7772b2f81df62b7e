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
}
