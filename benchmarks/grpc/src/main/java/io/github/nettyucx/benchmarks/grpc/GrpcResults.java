/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.ResultColumns;
import io.github.nettyucx.benchmarks.core.ResultRow;

/**
 * The columns of the gRPC benchmark's results: one row per measured scenario of one variant (transport,
 * allocator and executor) in one run, sent by the client JVM as a {@code RESULT} line and written to results.csv.
 * Metrics that do not apply stay empty. Every row of a client JVM carries how its warm-up went.
 */
final class GrpcResults {
    static final ResultColumns COLUMNS = new ResultColumns("transport", "allocator", "executor", "benchmark",
            "size_bytes", "concurrency", "run", "status", "calls", "elapsed_s", "p50_us", "p99_us", "p999_us",
            "mean_us", "calls_per_s", "msgs_per_s", "mb_per_s", "client_cpu_us_per_op", "server_cpu_us_per_op",
            "client_cpu_percent", "server_cpu_percent", "warmup_s", "warmup_stable_after_s", "warmup_unstable",
            "note");

    private GrpcResults() {
    }

    /** transport, or transport+allocator when the allocator is not gRPC's default. */
    static String variant(ResultRow r) {
        return "grpc".equals(r.get("allocator")) || r.get("allocator").isEmpty() ? r.get("transport")
                : r.get("transport") + "+" + r.get("allocator") + "-alloc";
    }

    /** The variant labelled by its executor, "ucx (direct)": what tables and charts name a series by. */
    static String series(ResultRow r) {
        return variant(r) + " (" + r.get("executor") + ")";
    }

    /** Calls (unary and blocking scenarios) or streamed messages measured in the row's window. */
    static double operations(ResultRow r) {
        return r.get("benchmark").equals(Scenario.Kind.STREAM.id) ? r.number("msgs_per_s") * r.number("elapsed_s")
                : r.number("calls");
    }
}
