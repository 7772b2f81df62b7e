/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

class FirstSecondReportTest {
    private static FirstSecondReport report() {
        FirstSecondBenchmark.Options options = new FirstSecondBenchmark.Options();
        options.runs = 2;
        options.windows = 2;
        options.variants = List.of("ucx", "epoll");
        FirstSecondReport report = new FirstSecondReport(options, "bin/bench first-second --runs 2 --windows 2");
        // Each run: the first round trips' median (us), their time in all (ms), then each window's median (us).
        report.add(1, "ucx", List.of(10.0, 3_000.0, 40.0, 8.0));
        report.add(1, "epoll", List.of(40.0, 1_500.0, 100.0, 30.0));
        report.add(2, "epoll", List.of(40.0, 2_000.0, 120.0, 35.0));
        report.add(2, "ucx", List.of(30.0, 1_000.0, 60.0, 9.0));
        return report;
    }

    @Test
    void theFirstRoundTripsHaveTheirMedianAndTheirTimeInAllWithRatiosToEpoll() {
        String md = report().markdown();
        assertTrue(md.contains("| ucx | 20.0 [10.0 - 30.0] | 0.50 [0.25 - 0.75] | 1 of 2 | 2000 [1000 - 3000] "
                + "| 1.25 [0.50 - 2.00] |"), md);
        assertTrue(md.contains("| epoll | 40.0 [40.0 - 40.0] | - | - | 1750 [1500 - 2000] | - |"), md);
    }

    @Test
    void theWindowsComeAfterTheTimeInAll() {
        String md = report().markdown();
        assertTrue(md.contains("| 1 | 50.0 | 110.0 |\n| 2 | 8.5 | 32.5 |"), md);
    }
}
