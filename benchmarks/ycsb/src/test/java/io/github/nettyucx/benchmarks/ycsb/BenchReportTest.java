/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.ycsb.YcsbOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * results.md and results.csv from made-up runs of workloads A and C. (The charts are left out: drawing text
 * under the tests' -Xcheck:jni floods the log with warnings from the JDK's font code.)
 */
class BenchReportTest {
    @TempDir
    Path dir;

    private static YcsbOutput summary(boolean updates, double ops, double readP99, double updateP99) {
        List<String> lines = new ArrayList<>(List.of("[OVERALL], Throughput(ops/sec), " + ops,
                "[READ], Operations, 100", "[READ], 99thPercentileLatency(us), " + readP99, "[READ], Return=OK, 100"));
        if (updates) {
            lines.addAll(List.of("[UPDATE], Operations, 100", "[UPDATE], 99thPercentileLatency(us), " + updateP99,
                    "[UPDATE], Return=OK, 100"));
        }
        return YcsbOutput.parse(String.join("\n", lines));
    }

    private String write(List<RunResult> results) throws Exception {
        return write(results, "a,c");
    }

    private String write(List<RunResult> results, String workloads) throws Exception {
        BenchOptions o = BenchOptions.parse(new String[] {"--workloads", workloads, "--threads", "4", "--transports",
                "ucx,ucx-spin,epoll", "--runs", "2"});
        new BenchReport(o, "bin/bench-ycsb --runs 2", "no neighbours", results, "0.1 0.1 0.1", "0.2 0.1 0.1", 60)
                .writeTables(dir);
        return Files.readString(dir.resolve("results.md"), StandardCharsets.UTF_8);
    }

    @Test
    void spreadRatiosAndTargetPerVariant() throws Exception {
        List<RunResult> results = new ArrayList<>();
        for (String w : List.of("a", "c")) {
            boolean updates = w.equals("a");
            // ucx: 2.5x in run 1 but a READ p99 above epoll's in run 2; ucx-spin: holds in both runs.
            results.add(new RunResult(w, 4, "ucx", 1, 1, summary(updates, 25_000, 300, 310)));
            results.add(new RunResult(w, 4, "ucx-spin", 1, 2, summary(updates, 30_000, 200, 210)));
            results.add(new RunResult(w, 4, "epoll", 1, 3, summary(updates, 10_000, 400, 420)));
            results.add(new RunResult(w, 4, "epoll", 2, 1, summary(updates, 10_000, 400, 420)));
            results.add(new RunResult(w, 4, "ucx-spin", 2, 2, summary(updates, 20_000, 400, 400)));
            results.add(new RunResult(w, 4, "ucx", 2, 3, summary(updates, 21_000, 500, 800)));
        }
        String md = write(results);

        assertContains(md, "odd runs go ucx, ucx-spin, epoll; even runs epoll, ucx-spin, ucx");
        assertContains(md, "| threads | transport | ops/s | steady ops/s | READ p99 us | UPDATE p99 us |");
        assertContains(md, "| 4 | ucx | 23,000 [21,000 - 25,000] | - | 400 [300 - 500] | 555 [310 - 800] |");
        assertContains(md, "| 4 | epoll | 10,000 [10,000 - 10,000] | - | 400 [400 - 400] | 420 [420 - 420] |");
        assertContains(md, "| 4 | ucx | 2.10 / 2.30 / 2.50 (2.50, 2.10) | - | 0.75 / 1.00 / 1.25 (0.75, 1.25) "
                + "| 0.74 / 1.32 / 1.90 (0.74, 1.90) |");
        // Workload C has no UPDATE: no UPDATE column in its tables.
        String c = md.substring(md.indexOf("## Workload C"));
        assertContains(c, "| threads | transport | ops/s | steady ops/s | READ p99 us |\n");
        assertContains(md, "- `ucx`: workload A held in 1 of 2 runs (ops/s 2.50x, 2.10x; READ p99 0.75x, 1.25x); "
                + "workload C held in 1 of 2 runs");
        assertContains(md, "**not met**");
        assertContains(md, "- `ucx-spin`: workload A held in 2 of 2 runs");
        assertContains(md, "**held in every run measured, not judged: 2 run(s) where the target needs 5**");

        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(1 + 2 * 3 * 2 + 2 * 3, csv.size(), "a row per run and operation, READ and UPDATE in A");
        assertTrue(csv.contains("a,4,ucx,2,21000.0,NaN,UPDATE,100,NaN,NaN,800,100,0,3"), String.join("\n", csv));
        for (String chart : List.of("workloada-throughput-runs.png", "workloada-read-p99-runs.png",
                "workloadc-throughput-runs.png", "workloadc-read-p99-runs.png")) {
            assertContains(md, "![" + chart + "](" + chart + ")");
        }
    }

    @Test
    void aTargetWorkloadLeftOutIsSaidAndNothingIsMetWithoutIt() throws Exception {
        List<RunResult> results = new ArrayList<>();
        for (int run = 1; run <= 2; run++) {
            results.add(new RunResult("a", 4, "ucx", run, 1, summary(true, 30_000, 300, 300)));
            results.add(new RunResult("a", 4, "ucx-spin", run, 2, summary(true, 15_000, 300, 300)));
            results.add(new RunResult("a", 4, "epoll", run, 3, summary(true, 10_000, 400, 400)));
        }
        String md = write(results, "a");
        assertContains(md, "- `ucx`: workload A held in 2 of 2 runs (ops/s 3.00x, 3.00x; READ p99 0.75x, 0.75x); "
                + "workload C not measured: **held in every run measured, not judged: workload C not measured; "
                + "2 run(s) where the target needs 5**.");
        assertContains(md, "- `ucx-spin`: workload A held in 0 of 2 runs (ops/s 1.50x, 1.50x; READ p99 0.75x, "
                + "0.75x); workload C not measured: **not met**.");
        assertTrue(!md.contains("## Workload C"), md);
    }

    private static void assertContains(String text, String part) {
        assertTrue(text.contains(part), "no '" + part + "' in:\n" + text);
    }
}
