/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.ChildProcess;
import io.github.nettyucx.benchmarks.core.ResultRow;

/**
 * CPU time the client and server JVMs used during one measurement window, read by the coordinator when the
 * client marks the window's ends: after the warm-up and the scenario's ramp, which leaves the JIT's early work
 * and the load's start out. A transport that polls shows up here even when its latency looks good.
 */
final class CpuWindow {
    private final ChildProcess client;
    private final ChildProcess server;
    private long startNanos;
    private long clientStart;
    private long serverStart;
    private long elapsedNanos = -1;
    private long clientUsed = -1;
    private long serverUsed = -1;

    CpuWindow(ChildProcess client, ChildProcess server) {
        this.client = client;
        this.server = server;
    }

    void start() {
        startNanos = System.nanoTime();
        clientStart = client.cpuNanos();
        serverStart = server.cpuNanos();
        elapsedNanos = -1;
    }

    void end() {
        elapsedNanos = System.nanoTime() - startNanos;
        long c = client.cpuNanos();
        long s = server.cpuNanos();
        clientUsed = c < 0 || clientStart < 0 ? -1 : c - clientStart;
        serverUsed = s < 0 || serverStart < 0 ? -1 : s - serverStart;
    }

    /** Adds CPU per operation (call or streamed message) and CPU utilisation to the window's result. */
    void attachTo(ResultRow r) {
        if (elapsedNanos <= 0 || !r.ok()) {
            return;
        }
        double ops = GrpcResults.operations(r);
        if (clientUsed >= 0) {
            r.put("client_cpu_percent", 100.0 * clientUsed / elapsedNanos);
            if (ops > 0) {
                r.put("client_cpu_us_per_op", clientUsed / 1e3 / ops);
            }
        }
        if (serverUsed >= 0) {
            r.put("server_cpu_percent", 100.0 * serverUsed / elapsedNanos);
            if (ops > 0) {
                r.put("server_cpu_us_per_op", serverUsed / 1e3 / ops);
            }
        }
        elapsedNanos = -1;
    }
}
