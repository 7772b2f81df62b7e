/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportTest {
    private static Report report(String... transports) {
        Report report = new Report(SystemBenchmark.Mode.QUICK, 1, "",
                Arrays.stream(transports).map(TransportPair::of).collect(Collectors.toList()));
        for (String t : transports) {
            String id = TransportPair.of(t).id();
            double factor = id.equals("epoll") ? 1 : 2;
            report.results.add(BenchResults.row(id, "pingpong", 16, 1, 1).put("p50_us", 10 * factor));
            report.results.add(BenchResults.row(id, "throughput", 1024, 1, 1).put("mb_per_s", 100 * factor));
        }
        return report;
    }

    @Test
    void withoutPairsTheTablesKeepTheirColumns() {
        String md = report("epoll", "ucx").markdown();
        assertTrue(md.contains("| size | epoll | ucx | ucx/epoll | ucx-tcp/epoll |\n|---|---:|---:|---:|---:|\n"
                + "| 16 B | 10.0 | 20.0 | 2.00 | – |\n"), md);
        assertTrue(md.contains("| size | connections | epoll | ucx | ucx/epoll | ucx-tcp/epoll |\n"
                + "|---|---:|---:|---:|---:|---:|\n| 1 KiB | 1 | 100 | 200 | 2.00 | – |\n"), md);
        assertFalse(md.contains("A pair"), md);
    }

    @Test
    void aPairIsAColumnWithARatioToEpoll() {
        String md = report("epoll", "ucx", "epoll-to-ucx").markdown();
        assertTrue(md.contains("| size | epoll | ucx | epoll-to-ucx | ucx/epoll | ucx-tcp/epoll "
                + "| epoll-to-ucx/epoll |\n|---|---:|---:|---:|---:|---:|---:|\n"
                + "| 16 B | 10.0 | 20.0 | 20.0 | 2.00 | – | 2.00 |\n"), md);
        assertTrue(md.contains("| 1 KiB | 1 | 100 | 200 | 200 | 2.00 | – | 2.00 |\n"), md);
        assertTrue(md.contains("| 16 B | epoll-to-ucx | 20.0 |"), md);
        assertTrue(md.contains("A pair `A-to-B`"), md);
    }
}
