/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One measured scenario of one variant (transport and allocator) in one run. Travels from the client JVM
 * to the coordinator as a {@code RESULT} line of tab-separated {@code key=value} pairs, and ends up as a
 * CSV row. Metrics that do not apply stay empty.
 */
final class Result {
    static final String[] COLUMNS = {"transport", "allocator", "benchmark", "size_bytes", "concurrency", "run",
        "status", "calls", "elapsed_s", "p50_us", "p99_us", "p999_us", "mean_us", "calls_per_s", "msgs_per_s",
        "mb_per_s", "client_cpu_us_per_op", "server_cpu_us_per_op", "client_cpu_percent", "server_cpu_percent",
        "note"};

    private final Map<String, String> values = new LinkedHashMap<>();

    Result() {
        for (String c : COLUMNS) {
            values.put(c, "");
        }
        values.put("status", "ok");
    }

    Result put(String key, Object value) {
        String text;
        if (value instanceof Double) {
            double d = (Double) value;
            text = Double.isFinite(d) ? String.format(Locale.ROOT, "%.3f", d) : "";
        } else {
            text = value == null ? "" : String.valueOf(value);
        }
        values.put(key, text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' '));
        return this;
    }

    String get(String key) {
        return values.getOrDefault(key, "");
    }

    double number(String key) {
        try {
            return get(key).isEmpty() ? Double.NaN : Double.parseDouble(get(key));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    boolean ok() {
        return "ok".equals(get("status"));
    }

    /** transport, or transport+allocator when the allocator is not gRPC's default. */
    String variant() {
        return "grpc".equals(get("allocator")) || get("allocator").isEmpty() ? get("transport")
                : get("transport") + "+" + get("allocator") + "-alloc";
    }

    String toLine() {
        StringBuilder sb = new StringBuilder("RESULT");
        values.forEach((k, v) -> sb.append('\t').append(k).append('=').append(v));
        return sb.toString();
    }

    static Result fromLine(String line) {
        Result r = new Result();
        String[] parts = line.split("\t");
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                r.values.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
            }
        }
        return r;
    }

    static String csvHeader() {
        return String.join(",", COLUMNS);
    }

    String toCsv() {
        StringBuilder sb = new StringBuilder();
        for (String c : COLUMNS) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            String v = get(c);
            if (v.contains(",") || v.contains("\"")) {
                v = '"' + v.replace("\"", "\"\"") + '"';
            }
            sb.append(v);
        }
        return sb.toString();
    }
}
