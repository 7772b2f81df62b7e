/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.ycsb.YcsbMetric;

import java.util.ArrayList;
import java.util.List;

/**
 * The target: on YCSB workloads A and C with 4 threads, UCX does at least twice epoll's ops/s with a
 * READ p99 at or below epoll's, in 5 of 5 runs. It is judged run by run, against epoll in the same run, so a
 * run that is fast but slow to answer does not count, nor does a median that hides one failing run.
 */
final class Target {
    static final List<String> WORKLOADS = List.of("a", "c");
    static final int THREADS = 4;
    static final double MIN_THROUGHPUT_RATIO = 2.0;
    static final int RUNS = 5;
    static final String SENTENCE = "Target (issue): YCSB workloads A and C, 4 threads: at least 2x epoll's ops/s "
            + "with READ p99 at or below epoll's, in 5 of 5 runs.";

    private static final YcsbMetric READ_P99 = YcsbMetric.p99("READ");

    private Target() {
    }

    /**
     * For runs 1 to {@link RunTable#runs()}: whether the transport held the target on the workload in that run,
     * against epoll in the same run. A run that lacks either transport's figures did not hold it.
     */
    static List<Boolean> heldPerRun(RunTable table, String workload, String transport) {
        List<Double> throughput = table.ratiosToReference(workload, THREADS, transport, YcsbMetric.THROUGHPUT::of);
        List<Double> p99 = table.perRun(workload, THREADS, transport, READ_P99::of);
        List<Double> referenceP99 = table.perRun(workload, THREADS, RunTable.REFERENCE, READ_P99::of);
        List<Boolean> held = new ArrayList<>();
        for (int i = 0; i < throughput.size(); i++) {
            // NaN compares false both ways: a run without the figure fails.
            held.add(throughput.get(i) >= MIN_THROUGHPUT_RATIO && p99.get(i) <= referenceP99.get(i));
        }
        return held;
    }

    /** How many runs held the target (see {@link #heldPerRun}). */
    static int runsHeld(RunTable table, String workload, String transport) {
        return (int) heldPerRun(table, workload, transport).stream().filter(Boolean::booleanValue).count();
    }

    /**
     * Whether the transport met the target: both workloads measured, at least {@link #RUNS} runs, and every one
     * of them held on both.
     */
    static boolean met(RunTable table, String transport) {
        if (table.runs() < RUNS) {
            return false;
        }
        for (String w : WORKLOADS) {
            if (!table.has(w, THREADS, transport) || runsHeld(table, w, transport) != table.runs()) {
                return false;
            }
        }
        return true;
    }
}
