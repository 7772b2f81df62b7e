/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.MeasurementsExporter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What YCSB's own measurements say so far, read through its exporter interface (the same numbers YCSB prints
 * at the end of a run): operations per measured operation (READ, UPDATE, INSERT, VERIFY...) and every return
 * status that is not OK. With {@code dataintegrity=true} a value that does not match what was written shows up
 * as {@code VERIFY Return=UNEXPECTED_STATE}.
 */
final class YcsbCounts {
    private final Map<String, Long> operations = new TreeMap<>();
    private final Map<String, Long> failures = new TreeMap<>();

    private YcsbCounts() {
    }

    static YcsbCounts now() {
        YcsbCounts counts = new YcsbCounts();
        try {
            Measurements.getMeasurements().exportMeasurements(counts.new Collector());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counts;
    }

    /** Operations of the given kinds, e.g. READ and UPDATE. */
    long operations(Set<String> kinds) {
        long sum = 0;
        for (String kind : kinds) {
            sum += operations.getOrDefault(kind, 0L);
        }
        return sum;
    }

    long failures() {
        long sum = 0;
        for (long n : failures.values()) {
            sum += n;
        }
        return sum;
    }

    /** The failures as "OPERATION Return=STATUS: count", or an empty string. */
    String describeFailures() {
        StringBuilder out = new StringBuilder();
        failures.forEach((what, n) -> out.append(out.length() == 0 ? "" : ", ").append(what).append(": ").append(n));
        return out.toString();
    }

    private final class Collector implements MeasurementsExporter {
        @Override
        public void write(String metric, String measurement, int value) {
            write(metric, measurement, (long) value);
        }

        @Override
        public void write(String metric, String measurement, long value) {
            if (measurement.equals("Operations")) {
                operations.merge(metric, value, Long::sum);
            } else if (measurement.startsWith("Return=") && !measurement.equals("Return=OK") && value > 0) {
                failures.merge(metric + " " + measurement, value, Long::sum);
            }
        }

        @Override
        public void write(String metric, String measurement, double value) {
            // Latencies: not needed here.
        }

        @Override
        public void close() {
        }
    }
}
