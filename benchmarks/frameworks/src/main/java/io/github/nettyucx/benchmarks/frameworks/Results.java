/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.benchmarks.core.ResultColumns;

/** The columns of a result row, one per framework, transport, run and scenario. */
final class Results {
    static final String FRAMEWORK = "framework";
    static final String TRANSPORT = "transport";
    static final String RUN = "run";
    static final String SCENARIO = "scenario";
    static final String CALLS = "calls";
    static final String CALLS_PER_S = "calls_per_s";
    static final String P50_US = "p50_us";
    static final String P99_US = "p99_us";
    static final String MB_PER_S = "mb_per_s";
    /** CPU time of the client JVM in the window. */
    static final String CLIENT_CPU_MS = "client_cpu_ms";
    /** CPU time of the server JVM in the window (the coordinator measures it). */
    static final String SERVER_CPU_MS = "server_cpu_ms";
    /** Both JVMs' CPU time per call, or per MB for a stream. */
    static final String CPU_US_PER_OP = "cpu_us_per_op";
    /** Both JVMs' CPU time in the window, in percent of one core. */
    static final String CPU_PERCENT = "cpu_percent";
    /**
     * The client JVM's eventfd writes that woke a sleeping UCX event loop, per call (UCX only): how often an
     * application thread's write paid for a wake-up system call.
     */
    static final String WAKEUPS_PER_CALL = "wakeups_per_call";
    static final String ERROR = "error";

    static final ResultColumns COLUMNS = new ResultColumns(FRAMEWORK, TRANSPORT, RUN, SCENARIO, CALLS, CALLS_PER_S,
            P50_US, P99_US, MB_PER_S, CLIENT_CPU_MS, SERVER_CPU_MS, CPU_US_PER_OP, CPU_PERCENT, WAKEUPS_PER_CALL,
            ResultColumns.STATUS, ERROR);

    /** Printed by the client when a window starts and ends, so that the coordinator takes the server's CPU time. */
    static final String WINDOW_BEGIN = "WINDOW-BEGIN";
    static final String WINDOW_END = "WINDOW-END";

    private Results() {
    }
}
