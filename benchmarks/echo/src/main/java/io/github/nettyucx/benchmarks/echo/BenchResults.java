/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.ResultColumns;
import io.github.nettyucx.benchmarks.core.ResultRow;

/**
 * The columns of the system benchmark's results: one row per transport, benchmark ({@code pingpong},
 * {@code throughput} or a {@code ucx_perftest} test), message size, connection count and run. Metrics that do
 * not apply stay empty; {@code machine_mb_per_s} is the machine's cross-core copy rate around the
 * measurement (the lower of the {@link MachineProbe} rates before and after). A row travels from the
 * client process to the coordinator as one {@code RESULT} line.
 */
final class BenchResults {
    static final ResultColumns COLUMNS = new ResultColumns("transport", "benchmark", "size_bytes", "connections",
            "run", "status", "ops", "warmup_ops", "elapsed_s", "p50_us", "p99_us", "p999_us", "mean_us", "max_us",
            "mb_per_s", "msgs_per_s", "client_cpu_us_per_op", "server_cpu_us_per_op", "machine_mb_per_s", "note");

    private BenchResults() {
    }

    /** A row of one measurement, status ok until something goes wrong. */
    static ResultRow row(String transport, String benchmark, int size, int connections, int run) {
        return COLUMNS.newRow().put("transport", transport).put("benchmark", benchmark).put("size_bytes", size)
                .put("connections", connections).put("run", run);
    }
}
