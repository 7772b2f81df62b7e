/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The summary YCSB's client prints at the end of a phase, lines of the form
 * {@code [SECTION], metric, value} (e.g. {@code [READ], 99thPercentileLatency(us), 812}).
 */
public final class YcsbOutput {
    private final Map<String, Map<String, String>> sections = new LinkedHashMap<>();

    public static YcsbOutput parse(String text) {
        YcsbOutput out = new YcsbOutput();
        for (String line : text.split("\\R")) {
            if (!line.startsWith("[")) {
                continue;
            }
            int close = line.indexOf("], ");
            int comma = close < 0 ? -1 : line.indexOf(", ", close + 3);
            if (close < 0 || comma < 0) {
                continue;
            }
            String section = line.substring(1, close);
            String metric = line.substring(close + 3, comma);
            String value = line.substring(comma + 2).trim();
            out.sections.computeIfAbsent(section, s -> new LinkedHashMap<>()).put(metric, value);
        }
        return out;
    }

    public static YcsbOutput read(Path file) throws IOException {
        return parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
    }

    /** The metric's value, or NaN when YCSB did not print it. */
    public double value(String section, String metric) {
        Map<String, String> s = sections.get(section);
        String v = s == null ? null : s.get(metric);
        if (v == null) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** How many operations of a section returned this status (0 if none). */
    public long returned(String section, String status) {
        double v = value(section, "Return=" + status);
        return Double.isNaN(v) ? 0 : (long) v;
    }

    /** Every Return=... metric of a section, e.g. {OK=990, NOT_FOUND=10}. */
    public Map<String, Long> returns(String section) {
        Map<String, Long> out = new LinkedHashMap<>();
        Map<String, String> s = sections.get(section);
        if (s != null) {
            for (Map.Entry<String, String> e : s.entrySet()) {
                if (e.getKey().startsWith("Return=")) {
                    out.put(e.getKey().substring("Return=".length()), (long) Double.parseDouble(e.getValue()));
                }
            }
        }
        return out;
    }

    public double throughput() {
        return value("OVERALL", "Throughput(ops/sec)");
    }

    /** Sections that measured operations (READ, UPDATE, SCAN, ...), without OVERALL, CLEANUP and GC lines. */
    public List<String> operations() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> e : sections.entrySet()) {
            String name = e.getKey();
            if (name.equals("OVERALL") || name.equals("CLEANUP") || name.startsWith("TOTAL_GC")
                    || name.endsWith("-FAILED") || !e.getValue().containsKey("Operations")) {
                continue;
            }
            out.add(name);
        }
        return out;
    }

    public boolean isEmpty() {
        return sections.isEmpty();
    }
}
