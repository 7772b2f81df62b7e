/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.ycsb.YcsbMetric;
import io.github.nettyucx.ycsb.YcsbOutput;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The target, judged run by run from {@link RunTable}'s per-run ratios. */
class TargetTest {
    private final List<RunResult> results = new ArrayList<>();

    private void add(String workload, String transport, int run, double opsPerSecond, double readP99) {
        results.add(new RunResult(workload, 4, transport, run, 1, YcsbOutput.parse(String.join("\n",
                "[OVERALL], Throughput(ops/sec), " + opsPerSecond,
                "[READ], Operations, 100",
                "[READ], 99thPercentileLatency(us), " + readP99))));
    }

    /** Five runs of A and C where ucx does 2x epoll or more at a p99 at or below epoll's. */
    private void fiveGoodRuns() {
        for (String w : Target.WORKLOADS) {
            for (int run = 1; run <= 5; run++) {
                add(w, "epoll", run, 10_000, 400);
                add(w, "ucx", run, 20_000 + run % 2, 400 - run % 2);
            }
        }
    }

    @Test
    void heldInEveryRunOfBothWorkloadsIsMet() {
        fiveGoodRuns();
        RunTable table = new RunTable(results, 5);
        assertEquals(List.of(true, true, true, true, true), Target.heldPerRun(table, "a", "ucx"));
        assertTrue(Target.met(table, "ucx"));
    }

    @Test
    void oneRunJustUnderTwiceEpollIsNotMet() {
        fiveGoodRuns();
        results.removeIf(r -> r.workload().equals("c") && r.transport().equals("ucx") && r.run() == 3);
        add("c", "ucx", 3, 19_999, 100);
        RunTable table = new RunTable(results, 5);
        assertEquals(List.of(true, true, false, true, true), Target.heldPerRun(table, "c", "ucx"));
        assertEquals(4, Target.runsHeld(table, "c", "ucx"));
        assertFalse(Target.met(table, "ucx"));
    }

    @Test
    void aReadP99AboveEpollsInTheSameRunDoesNotHoldEvenWhenTheMedianIsLower() {
        fiveGoodRuns();
        results.removeIf(r -> r.workload().equals("a") && r.transport().equals("ucx") && r.run() == 5);
        add("a", "ucx", 5, 50_000, 401);
        RunTable table = new RunTable(results, 5);
        assertEquals(400, table.spread("a", 4, "ucx", YcsbMetric.p99("READ")::of).median());
        assertEquals(List.of(true, true, true, true, false), Target.heldPerRun(table, "a", "ucx"));
        assertFalse(Target.met(table, "ucx"));
    }

    @Test
    void aMissingRunOrWorkloadOrTooFewRunsIsNotMet() {
        fiveGoodRuns();
        assertFalse(Target.met(new RunTable(results, 6), "ucx"), "run 6 has no result");
        assertFalse(Target.met(new RunTable(results.subList(0, 10), 5), "ucx"), "workload C missing");
        List<RunResult> twoRuns = results.stream().filter(r -> r.run() <= 2).toList();
        RunTable table = new RunTable(twoRuns, 2);
        assertEquals(2, Target.runsHeld(table, "a", "ucx"));
        assertFalse(Target.met(table, "ucx"), "the target asks for 5 runs");
    }

    @Test
    void ratiosAreTakenAgainstEpollInTheSameRun() {
        add("a", "epoll", 1, 10_000, 400);
        add("a", "ucx", 1, 30_000, 200);
        add("a", "epoll", 2, 30_000, 100);
        add("a", "ucx", 2, 30_000, 200);
        RunTable table = new RunTable(results, 3);
        assertEquals(List.of(3.0, 1.0, Double.NaN),
                table.ratiosToReference("a", 4, "ucx", YcsbMetric.THROUGHPUT::of));
        assertEquals(List.of(0.5, 2.0, Double.NaN),
                table.ratiosToReference("a", 4, "ucx", YcsbMetric.p99("READ")::of));
        assertTrue(table.measured("a", "READ"));
        assertFalse(table.measured("a", "UPDATE"));
    }
}
