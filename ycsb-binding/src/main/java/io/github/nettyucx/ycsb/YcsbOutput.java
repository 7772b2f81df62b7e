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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The summary YCSB's client prints at the end of a phase, lines of the form
 * {@code [SECTION], metric, value} (e.g. {@code [READ], 99thPercentileLatency(us), 812}).
 */
public final class YcsbOutput {
    /** A status line of {@code -s}: "... 10 sec: 162902 operations; ...". */
    private static final Pattern STATUS = Pattern.compile(" (\\d+) sec: (\\d+) operations");

    private final Map<String, Map<String, String>> sections = new LinkedHashMap<>();
    private final List<Long> statusSeconds = new ArrayList<>();
    private final List<Long> statusOperations = new ArrayList<>();

    public static YcsbOutput parse(String text) {
        YcsbOutput out = new YcsbOutput();
        for (String line : text.split("\\R")) {
            Matcher status = STATUS.matcher(line);
            if (status.find()) {
                out.statusSeconds.add(Long.parseLong(status.group(1)));
                out.statusOperations.add(Long.parseLong(status.group(2)));
                continue;
            }
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

    /**
     * Operations per second after the first {@code warmupSeconds}, from the {@code -s} status lines
     * (a fresh JVM spends its first seconds compiling); NaN without enough status lines.
     */
    public double steadyThroughput(long warmupSeconds) {
        int from = -1;
        for (int i = 0; i < statusSeconds.size(); i++) {
            if (statusSeconds.get(i) >= warmupSeconds) {
                from = i;
                break;
            }
        }
        // The last status line is printed at the end, possibly in the same second as the one before.
        int to = statusSeconds.size() - 1;
        if (from < 0 || to <= from || statusSeconds.get(to) <= statusSeconds.get(from)) {
            return Double.NaN;
        }
        return (double) (statusOperations.get(to) - statusOperations.get(from))
                / (statusSeconds.get(to) - statusSeconds.get(from));
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
