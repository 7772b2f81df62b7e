/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One measurement: a transport, a benchmark ({@code pingpong}, {@code throughput} or a
 * {@code ucx_perftest} test), a message size, a connection count and a run number, with its
 * metrics. Metrics that do not apply are NaN. Travels from the client process to the
 * coordinator as one {@code RESULT} line of tab-separated {@code key=value} pairs.
 */
final class Result {
    static final String[] COLUMNS = {"transport", "benchmark", "size_bytes", "connections", "run", "status",
        "ops", "warmup_ops", "elapsed_s", "p50_us", "p99_us", "p999_us", "mean_us", "max_us", "mb_per_s",
        "msgs_per_s", "client_cpu_us_per_op", "server_cpu_us_per_op", "note"};

    final Map<String, String> values = new LinkedHashMap<>();

    Result(String transport, String benchmark, int size, int connections, int run) {
        for (String column : COLUMNS) {
            values.put(column, "");
        }
        put("transport", transport);
        put("benchmark", benchmark);
        put("size_bytes", size);
        put("connections", connections);
        put("run", run);
        put("status", "ok");
    }

    private Result() {
    }

    Result put(String key, Object value) {
        String text;
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
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
        String text = get(key);
        if (text.isEmpty()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    int integer(String key) {
        double d = number(key);
        return Double.isNaN(d) ? 0 : (int) d;
    }

    boolean ok() {
        return "ok".equals(get("status"));
    }

    String toLine() {
        StringBuilder sb = new StringBuilder("RESULT");
        values.forEach((k, v) -> sb.append('\t').append(k).append('=').append(v));
        return sb.toString();
    }

    static Result fromLine(String line) {
        Result r = new Result();
        for (String column : COLUMNS) {
            r.values.put(column, "");
        }
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
        for (String column : COLUMNS) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            String v = get(column);
            if (v.contains(",") || v.contains("\"")) {
                v = '"' + v.replace("\"", "\"\"") + '"';
            }
            sb.append(v);
        }
        return sb.toString();
    }
}
