/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.benchmarks.core.Spread;
import io.github.nettyucx.ycsb.YcsbOutput;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The benchmark's runs looked up by workload, thread count, transport and run: one figure run by run, its
 * spread, and each run's ratio to epoll's figure in the same run. Ratios are taken within a run because the
 * transports of one run are measured minutes apart at most, while the machine's other work drifts over longer
 * spans.
 */
final class RunTable {
    /** The transport every other one is compared with. */
    static final String REFERENCE = "epoll";

    private final List<RunResult> results;
    private final int runs;

    /** {@code runs}: how many repetitions the benchmark made, numbered from 1. */
    RunTable(List<RunResult> results, int runs) {
        this.results = List.copyOf(results);
        this.runs = runs;
    }

    int runs() {
        return runs;
    }

    /** The figure in runs 1 to {@link #runs()}, in that order; NaN for a run that has no result or no figure. */
    List<Double> perRun(String workload, int threads, String transport, ToDoubleFunction<YcsbOutput> figure) {
        List<Double> values = new ArrayList<>(runs);
        for (int run = 1; run <= runs; run++) {
            RunResult r = find(workload, threads, transport, run);
            values.add(r == null ? Double.NaN : figure.applyAsDouble(r.output()));
        }
        return values;
    }

    Spread spread(String workload, int threads, String transport, ToDoubleFunction<YcsbOutput> figure) {
        return Spread.of(perRun(workload, threads, transport, figure));
    }

    /** Each run's figure divided by epoll's in the same run, in run order (NaN where either is missing). */
    List<Double> ratiosToReference(String workload, int threads, String transport,
                                   ToDoubleFunction<YcsbOutput> figure) {
        return Spread.ratios(perRun(workload, threads, transport, figure),
                perRun(workload, threads, REFERENCE, figure));
    }

    /** Whether any run of the workload measured this operation (workload C has no UPDATE). */
    boolean measured(String workload, String operation) {
        return results.stream().anyMatch(r -> r.workload().equals(workload)
                && r.output().operations().contains(operation));
    }

    boolean has(String workload, int threads, String transport) {
        return results.stream().anyMatch(r -> r.workload().equals(workload) && r.threads() == threads
                && r.transport().equals(transport));
    }

    private RunResult find(String workload, int threads, String transport, int run) {
        for (RunResult r : results) {
            if (r.run() == run && r.threads() == threads && r.workload().equals(workload)
                    && r.transport().equals(transport)) {
                return r;
            }
        }
        return null;
    }
}
