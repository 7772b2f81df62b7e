/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.ResultRow;
import org.junit.jupiter.api.Test;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report of a made-up run: both executors labelled, CPU per call beside the round trips, the warm-ups. */
class GrpcReportTest {
    @Test
    void callsTableShowsRoundTripsRateAndCpuPerCallForEveryExecutor() {
        String md = report().markdown(List.of());
        assertContains(md, "| unary 1 KiB x1 | direct | ucx | 50.0 | 90.0 | 120 | 10000 | 20.0 | 15.0 "
                + "| 40.0% / 30.0% |");
        assertContains(md, "| unary 1 KiB x1 | direct | epoll | 100 | 180 | 240 | 5000 | 40.0 | 30.0 |");
        assertContains(md, "| blocking 1 KiB, 8 threads | default | ucx | 70.0 | 126 | 168 | 20000 | 31.0 | 23.3 |");
        assertContains(md, "| blocking 1 KiB, 8 threads | default | epoll | 140 |");
        assertContains(md, "| unary 1 KiB x1 | direct | 0.50 | met |");
        assertContains(md, "| blocking 1 KiB, 8 threads | default | 0.50 | met |");
    }

    @Test
    void warmUpTableSaysHowEachClientJvmWarmedUp() {
        String md = report().markdown(List.of());
        assertContains(md, "| ucx | direct | stable after 12 s | stable after 8 s, warmed up for 10 s |");
        assertContains(md, "| ucx | default | not stable after 40 s (blocking:1024:8) | stable after 14 s |");
    }

    @Test
    void everyRowNamesItsExecutor() {
        String[] csv = report().csv().split("\n");
        assertTrue(csv[0].startsWith("transport,allocator,executor,benchmark,"), csv[0]);
        assertEquals(9, csv.length, "a header and eight rows");
        assertTrue(csv[3].startsWith("ucx,grpc,default,blocking,1024,8,1,ok,"), csv[3]);
    }

    @Test
    void chartsAreListed() {
        assertContains(report().markdown(List.of("blocking-p50.png", "cpu-per-call.png")),
                "Charts: `blocking-p50.png`, `cpu-per-call.png`; every measurement: `results.csv`.");
    }

    private GrpcReport report() {
        List<ResultRow> rows = new ArrayList<>();
        for (int run = 1; run <= 2; run++) {
            boolean first = run == 1;
            rows.add(row("ucx", "direct", "unary", 1, run, 50, 10000, 20, first ? 12 : 10, first ? 12 : 8, ""));
            rows.add(row("epoll", "direct", "unary", 1, run, 100, 5000, 40, 12, 12, ""));
            rows.add(row("ucx", "default", "blocking", 8, run, 70, 20000, first ? 30 : 32, first ? 40 : 14,
                    first ? Double.NaN : 14, first ? "blocking:1024:8" : ""));
            rows.add(row("epoll", "default", "blocking", 8, run, 140, 10000, 60, 10, 10, ""));
        }
        Map<ExecutorChoice, List<Scenario>> scenarios = new LinkedHashMap<>();
        scenarios.put(ExecutorChoice.DIRECT, Scenario.parseList("unary:1024:1"));
        scenarios.put(ExecutorChoice.DEFAULT, Scenario.parseList("blocking:1024:8"));
        GrpcBenchmark.Settings settings = new GrpcBenchmark.Settings("ucx,epoll", "", 2, 10, 40, 2, 10, scenarios,
                "quick");
        return new GrpcReport(rows, new LinkedHashMap<>(), settings, "bin/bench-grpc --test", ZonedDateTime.now(),
                "0.1 0.1 0.1", "0.2 0.2 0.2");
    }

    /** A row as the client JVM and the coordinator's CPU window fill it; p99 and p99.9 follow from p50. */
    private static ResultRow row(String transport, String executor, String benchmark, int concurrency, int run,
                                 double p50, double callsPerS, double clientCpu, double warmup, double stableAfter,
                                 String unstable) {
        ResultRow r = GrpcResults.COLUMNS.newRow().put("transport", transport).put("allocator", "grpc")
                .put("executor", executor).put("benchmark", benchmark).put("size_bytes", 1024)
                .put("concurrency", concurrency).put("run", run).put("calls", callsPerS * 10).put("elapsed_s", 10.0)
                .put("p50_us", p50).put("p99_us", p50 * 1.8).put("p999_us", p50 * 2.4).put("mean_us", p50)
                .put("calls_per_s", callsPerS).put("client_cpu_us_per_op", clientCpu)
                .put("server_cpu_us_per_op", clientCpu * 0.75).put("client_cpu_percent", 40.0)
                .put("server_cpu_percent", 30.0);
        new WarmUp.Outcome(warmup, stableAfter, unstable.isEmpty() ? List.of() : List.of(unstable)).addTo(r);
        return r;
    }

    private static void assertContains(String text, String part) {
        assertTrue(text.contains(part), "no '" + part + "' in:\n" + text);
    }
}
