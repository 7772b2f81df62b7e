/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.ycsb.YcsbOutput;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class YcsbCompareTest {
    /** A YCSB run summary of workload A with these figures. */
    static YcsbOutput summary(double opsPerSecond, double readP99, double updateP99, long failedReads) {
        return YcsbOutput.parse(String.join("\n",
                "[OVERALL], Throughput(ops/sec), " + opsPerSecond,
                "[READ], Operations, 1000",
                "[READ], 99thPercentileLatency(us), " + readP99,
                "[READ], Return=OK, " + (1000 - failedReads),
                failedReads > 0 ? "[READ], Return=ERROR, " + failedReads : "",
                "[UPDATE], Operations, 1000",
                "[UPDATE], 99thPercentileLatency(us), " + updateP99,
                "[UPDATE], Return=OK, 1000"));
    }

    @Test
    void printsSpreadPerTransportAndTheRatioOfEachRun() {
        Map<String, List<YcsbOutput>> runs = new LinkedHashMap<>();
        runs.put("ucx", List.of(summary(40_000, 300, 320, 0), summary(60_000, 500, 400, 2),
                summary(50_000, 200, 360, 0)));
        runs.put("epoll", List.of(summary(20_000, 600, 640, 0), summary(20_000, 400, 400, 0),
                summary(25_000, 400, 300, 0)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        YcsbCompare.print(runs, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();

        assertEquals("Median [min - max] over 3 run(s):", lines.get(0));
        assertTrue(lines.get(1).matches(" +ucx +epoll"), lines.get(1));
        assertRow(lines, "ops/s", "50,000 [40,000 - 60,000]", "20,000 [20,000 - 25,000]");
        assertRow(lines, "READ p99 (us)", "300 [200 - 500]", "400 [400 - 600]");
        assertRow(lines, "UPDATE p99 (us)", "360 [320 - 400]", "400 [300 - 640]");
        assertRow(lines, "failed operations", "2 in all", "0 in all");
        assertTrue(lines.contains("ucx / epoll in the same run:"), String.join("\n", lines));
        // Run 2: 60,000 / 20,000; the median of 2.00, 3.00 and 2.00.
        assertRow(lines, "ops/s", "2.00x", "3.00x", "2.00x", "2.00x");
        assertRow(lines, "READ p99", "0.50x", "1.25x", "0.50x", "0.50x");
        assertRow(lines, "UPDATE p99", "0.50x", "1.00x", "1.20x", "1.00x");
    }

    @Test
    void aWorkloadWithoutUpdatesHasNoUpdateRow() {
        YcsbOutput readOnly = YcsbOutput.parse("[OVERALL], Throughput(ops/sec), 1000\n[READ], Operations, 10\n"
                + "[READ], 99thPercentileLatency(us), 90\n[READ], Return=OK, 10");
        Map<String, List<YcsbOutput>> runs = new LinkedHashMap<>();
        runs.put("ucx", List.of(readOnly));
        runs.put("epoll", List.of(readOnly));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        YcsbCompare.print(runs, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("READ p99"), text);
        assertTrue(!text.contains("UPDATE"), text);
        assertRow(text.lines().toList(), "ops/s", "1,000", "1,000");
    }

    /** Some line is the row's name followed by exactly these cells, blank-separated. */
    private static void assertRow(List<String> lines, String name, String... cells) {
        String wanted = name + "  " + String.join("  ", cells);
        boolean found = lines.stream().anyMatch(l -> l.startsWith(name + " ")
                && l.replaceAll(" {2,}", "  ").equals(wanted));
        assertTrue(found, "no row '" + wanted + "' in:\n" + String.join("\n", lines));
    }
}
