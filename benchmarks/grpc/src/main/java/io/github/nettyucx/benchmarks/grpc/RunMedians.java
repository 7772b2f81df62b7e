/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.Medians;
import io.github.nettyucx.benchmarks.core.ResultRow;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/** The results of an invocation seen as cases and variants, with each metric's median over the runs. */
final class RunMedians {
    private static final List<String> KIND_ORDER = List.of(Scenario.Kind.UNARY.id, Scenario.Kind.BLOCKING.id,
            Scenario.Kind.STREAM.id);

    private final List<ResultRow> results;

    RunMedians(List<ResultRow> results) {
        this.results = results;
    }

    /** The variants ("ucx", "ucx+channel-alloc", "epoll") in the order the first run took them. */
    List<String> variants() {
        return results.stream().filter(r -> !r.get("benchmark").equals("run")).map(GrpcResults::variant).distinct()
                .collect(Collectors.toList());
    }

    /**
     * The scenarios measured on each executor, of the given kinds: by kind, then executor (direct first), size and
     * concurrency.
     */
    List<Case> cases(Scenario.Kind... kinds) {
        List<String> wanted = new ArrayList<>();
        for (Scenario.Kind k : kinds) {
            wanted.add(k.id);
        }
        return results.stream().filter(r -> wanted.contains(r.get("benchmark"))).map(Case::of).distinct()
                .sorted(Comparator.comparingInt((Case c) -> KIND_ORDER.indexOf(c.benchmark))
                        .thenComparing(c -> ExecutorChoice.of(c.executor))
                        .thenComparingInt(c -> c.size).thenComparingInt(c -> c.concurrency))
                .collect(Collectors.toList());
    }

    /** Whether any run of the variant measured the case (successfully or not). */
    boolean measured(String variant, Case c) {
        return results.stream().anyMatch(r -> GrpcResults.variant(r).equals(variant) && c.matches(r));
    }

    /** Median over the runs of one metric; NaN when no run succeeded. */
    double median(String variant, Case c, String metric) {
        List<Double> values = new ArrayList<>();
        for (ResultRow r : results) {
            if (r.ok() && GrpcResults.variant(r).equals(variant) && c.matches(r)) {
                values.add(r.number(metric));
            }
        }
        return Medians.ofFinite(values);
    }

    /** The rows of one variant and executor in one run, for what describes the whole client JVM (its warm-up). */
    List<ResultRow> rows(String variant, String executor, int run) {
        return results.stream().filter(r -> GrpcResults.variant(r).equals(variant)
                && r.get("executor").equals(executor) && r.integer("run") == run && !r.get("benchmark").equals("run"))
                .collect(Collectors.toList());
    }

    /** A scenario on an executor: what one line of a table, or one category of a chart, stands for. */
    static final class Case {
        final String benchmark;
        final int size;
        final int concurrency;
        final String executor;

        Case(String benchmark, int size, int concurrency, String executor) {
            this.benchmark = benchmark;
            this.size = size;
            this.concurrency = concurrency;
            this.executor = executor;
        }

        static Case of(ResultRow r) {
            return new Case(r.get("benchmark"), r.integer("size_bytes"), r.integer("concurrency"), r.get("executor"));
        }

        boolean matches(ResultRow r) {
            return r.get("benchmark").equals(benchmark) && r.integer("size_bytes") == size
                    && r.integer("concurrency") == concurrency && r.get("executor").equals(executor);
        }

        String label() {
            return Scenario.label(benchmark, size, concurrency);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Case)) {
                return false;
            }
            Case c = (Case) o;
            return benchmark.equals(c.benchmark) && size == c.size && concurrency == c.concurrency
                    && executor.equals(c.executor);
        }

        @Override
        public int hashCode() {
            return Objects.hash(benchmark, size, concurrency, executor);
        }
    }
}
