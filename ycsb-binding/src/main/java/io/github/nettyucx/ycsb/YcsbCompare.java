/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

import java.io.PrintStream;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Side-by-side table of YCSB run summaries (bin/demo's last output):
 * {@code YcsbCompare ucx=run-ucx.txt epoll=run-epoll.txt}. The ratio column compares the first
 * summary with the second: throughput as first/second (higher is better for the first), latencies
 * as second/first (so above 1x also means the first is better).
 */
public final class YcsbCompare {
    private YcsbCompare() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, YcsbOutput> runs = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                System.err.println("usage: YcsbCompare label=ycsb-output.txt [label=ycsb-output.txt ...]");
                System.exit(2);
            }
            runs.put(arg.substring(0, eq), YcsbOutput.read(Paths.get(arg.substring(eq + 1))));
        }
        print(runs, System.out);
    }

    static void print(Map<String, YcsbOutput> runs, PrintStream out) {
        List<String> labels = new ArrayList<>(runs.keySet());
        List<YcsbOutput> outputs = new ArrayList<>(runs.values());
        boolean ratio = labels.size() >= 2;
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-24s", ""));
        for (String label : labels) {
            header.append(String.format(Locale.ROOT, "%14s", label));
        }
        if (ratio) {
            header.append(String.format(Locale.ROOT, "%14s", labels.get(0) + " vs " + labels.get(1)));
        }
        out.println(header);
        row(out, "throughput (ops/s)", outputs, "OVERALL", "Throughput(ops/sec)", ratio, true);
        List<String> ops = new ArrayList<>();
        for (YcsbOutput o : outputs) {
            for (String op : o.operations()) {
                if (!ops.contains(op)) {
                    ops.add(op);
                }
            }
        }
        for (String op : ops) {
            row(out, op + " avg (us)", outputs, op, "AverageLatency(us)", ratio, false);
            row(out, op + " p99 (us)", outputs, op, "99thPercentileLatency(us)", ratio, false);
        }
        StringBuilder failed = new StringBuilder(String.format(Locale.ROOT, "%-24s", "failed operations"));
        for (YcsbOutput o : outputs) {
            long n = 0;
            for (String op : o.operations()) {
                for (Map.Entry<String, Long> e : o.returns(op).entrySet()) {
                    n += e.getKey().equals("OK") ? 0 : e.getValue();
                }
            }
            failed.append(String.format(Locale.ROOT, "%14s", String.format(Locale.ROOT, "%,d", n)));
        }
        out.println(failed);
        if (ratio) {
            out.printf(Locale.ROOT, "(last column above 1x: %s is better; throughput %s/%s, latencies %s/%s)%n",
                    labels.get(0), labels.get(0), labels.get(1), labels.get(1), labels.get(0));
        }
    }

    private static void row(PrintStream out, String name, List<YcsbOutput> outputs, String section, String metric,
                            boolean ratio, boolean higherIsBetter) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-24s", name));
        for (YcsbOutput o : outputs) {
            double v = o.value(section, metric);
            sb.append(String.format(Locale.ROOT, "%14s",
                    Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v)));
        }
        if (ratio) {
            double a = outputs.get(0).value(section, metric);
            double b = outputs.get(1).value(section, metric);
            double r = higherIsBetter ? a / b : b / a;
            sb.append(String.format(Locale.ROOT, "%14s", Double.isNaN(r) || Double.isInfinite(r) ? "-"
                    : String.format(Locale.ROOT, "%.2fx", r)));
        }
        out.println(sb);
    }
}
