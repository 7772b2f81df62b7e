/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.ChildProcess;
import io.github.nettyucx.benchmarks.core.ResultRow;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CPU per operation for every kind of scenario, from the CPU time of two real processes. */
class CpuWindowTest {
    @Test
    void blockingUnaryAndStreamRowsAllGetCpuPerOperation() throws Exception {
        try (ChildProcess client = ChildProcess.start(new ProcessBuilder("sleep", "30"));
             ChildProcess server = ChildProcess.start(new ProcessBuilder("sleep", "30"))) {
            for (String benchmark : new String[] {"blocking", "unary", "stream"}) {
                CpuWindow cpu = new CpuWindow(client, server);
                cpu.start();
                Thread.sleep(20);
                cpu.end();
                ResultRow r = GrpcResults.COLUMNS.newRow().put("benchmark", benchmark).put("calls", 1000)
                        .put("msgs_per_s", 100.0).put("elapsed_s", 10.0);
                cpu.attachTo(r);
                assertFalse(r.get("client_cpu_us_per_op").isEmpty(), benchmark + ": " + r);
                assertFalse(r.get("server_cpu_us_per_op").isEmpty(), benchmark + ": " + r);
                assertTrue(r.number("client_cpu_percent") >= 0, benchmark + ": " + r);
            }
        }
    }
}
