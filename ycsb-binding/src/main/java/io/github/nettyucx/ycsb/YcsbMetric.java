/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

/**
 * One figure of a YCSB summary that the demo and the benchmark compare across transports: the overall
 * throughput, or an operation's latency percentile.
 *
 * @param name           what tables and charts call it, e.g. {@code "READ p99"}
 * @param unit           e.g. {@code "ops/s"} or {@code "us"}
 * @param section        the summary section, e.g. {@code OVERALL} or {@code READ}
 * @param metric         the metric within the section, e.g. {@code 99thPercentileLatency(us)}
 * @param higherIsBetter true for throughput, false for latencies
 */
public record YcsbMetric(String name, String unit, String section, String metric, boolean higherIsBetter) {
    /** Operations per second over the whole run, as YCSB's summary gives it. */
    public static final YcsbMetric THROUGHPUT = new YcsbMetric("ops/s", "ops/s", "OVERALL", "Throughput(ops/sec)",
            true);

    /** The 99th percentile latency of one operation ({@code READ}, {@code UPDATE}, ...), in microseconds. */
    public static YcsbMetric p99(String operation) {
        return new YcsbMetric(operation + " p99", "us", operation, "99thPercentileLatency(us)", false);
    }

    /** The name with its unit, e.g. {@code "READ p99 (us)"}; throughput's name is its unit. */
    public String label() {
        return name.equals(unit) ? name : name + " (" + unit + ")";
    }

    /** This figure of a run's summary, NaN when the run did not measure it (no UPDATE in workload C). */
    public double of(YcsbOutput output) {
        return output.value(section, metric);
    }
}
