/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs workloads side by side for a while and samples the heap after a full GC and the process RSS at a fixed
 * interval, printing progress and writing the samples to a CSV file. It then checks that every workload made
 * progress in every interval and had no error, and that neither the heap nor the RSS grew from the first half
 * of the run (after warm-up) to the second by more than a leak bound.
 */
final class SoakDriver {
    private final List<SoakWorkload> workloads;
    private final long durationSeconds;
    private final long sampleSeconds;
    private final long growthBoundBytes;

    SoakDriver(List<SoakWorkload> workloads, long durationSeconds, long sampleSeconds, long growthBoundBytes) {
        this.workloads = workloads;
        this.durationSeconds = durationSeconds;
        this.sampleSeconds = sampleSeconds;
        this.growthBoundBytes = growthBoundBytes;
    }

    /** One sample: seconds since start, heap after GC, RSS, and each workload's operation count. */
    static final class Sample {
        final long second;
        final long heapBytes;
        final long rssBytes;
        final long[] operations;

        Sample(long second, long heapBytes, long rssBytes, long[] operations) {
            this.second = second;
            this.heapBytes = heapBytes;
            this.rssBytes = rssBytes;
            this.operations = operations;
        }
    }

    List<Sample> run(Path csv) throws Exception {
        List<Sample> samples = new ArrayList<>();
        try {
            // Inside the try: a workload that fails to start must not leave the others running.
            for (SoakWorkload w : workloads) {
                w.start();
            }
            long start = System.nanoTime();
            for (long t = sampleSeconds; t <= durationSeconds; t += sampleSeconds) {
                long wakeAt = start + TimeUnit.SECONDS.toNanos(t);
                Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(wakeAt - System.nanoTime())));
                samples.add(sample(t));
                Sample s = samples.get(samples.size() - 1);
                StringBuilder line = new StringBuilder("soak " + t + "/" + durationSeconds + " s: heap "
                        + (s.heapBytes >> 20) + " MiB, RSS " + (s.rssBytes >> 20) + " MiB");
                for (int i = 0; i < workloads.size(); i++) {
                    line.append(", ").append(workloads.get(i).name()).append(' ').append(s.operations[i]).append(" ops")
                            .append(workloads.get(i).errors() > 0 ? " ERRORS " + workloads.get(i).errors() : "");
                }
                System.out.println(line);
            }
        } finally {
            // In reverse order, like try-with-resources: the echo load, first, waits for every native connection
            // of the process to be freed before it shuts its groups down.
            for (int i = workloads.size() - 1; i >= 0; i--) {
                workloads.get(i).close();
            }
        }
        write(csv, samples);
        return samples;
    }

    /** The checks described in the class comment. */
    void check(List<Sample> samples) {
        for (SoakWorkload w : workloads) {
            assertEquals(0, w.errors(), w.name() + " had errors, the first: " + w.firstError());
        }
        for (int i = 1; i < samples.size(); i++) {
            for (int w = 0; w < workloads.size(); w++) {
                assertTrue(samples.get(i).operations[w] > samples.get(i - 1).operations[w], workloads.get(w).name()
                        + " made no progress between " + samples.get(i - 1).second + " s and " + samples.get(i).second
                        + " s");
            }
        }
        int n = samples.size();
        assertTrue(n >= 4, "too few samples for a trend: " + n);
        // Warm-up (JIT, pools, UCX's lazily grown buffers) is the first quarter; compare the second quarter with
        // the last one.
        long heapEarly = mean(samples.subList(n / 4, n / 2), true);
        long heapLate = mean(samples.subList(3 * n / 4, n), true);
        long rssEarly = mean(samples.subList(n / 4, n / 2), false);
        long rssLate = mean(samples.subList(3 * n / 4, n), false);
        System.out.println("soak trend: heap after GC " + (heapEarly >> 20) + " -> " + (heapLate >> 20) + " MiB, RSS "
                + (rssEarly >> 20) + " -> " + (rssLate >> 20) + " MiB (bound " + (growthBoundBytes >> 20) + " MiB)");
        assertTrue(heapLate - heapEarly < growthBoundBytes, "heap grows: " + (heapEarly >> 20) + " -> "
                + (heapLate >> 20) + " MiB");
        assertTrue(rssLate - rssEarly < growthBoundBytes, "RSS grows: " + (rssEarly >> 20) + " -> "
                + (rssLate >> 20) + " MiB");
    }

    private Sample sample(long second) {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long[] ops = new long[workloads.size()];
        for (int i = 0; i < ops.length; i++) {
            ops[i] = workloads.get(i).operations();
        }
        return new Sample(second, heap, ResourceSnapshot.rssBytes(), ops);
    }

    private static long mean(List<Sample> samples, boolean heap) {
        long sum = 0;
        for (Sample s : samples) {
            sum += heap ? s.heapBytes : s.rssBytes;
        }
        return sum / samples.size();
    }

    private void write(Path csv, List<Sample> samples) throws IOException {
        Files.createDirectories(csv.getParent());
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv))) {
            StringBuilder header = new StringBuilder("second,heap_after_gc_bytes,rss_bytes");
            for (SoakWorkload w : workloads) {
                header.append(',').append(w.name()).append("_ops");
            }
            out.println(header);
            for (Sample s : samples) {
                StringBuilder row = new StringBuilder(s.second + "," + s.heapBytes + "," + s.rssBytes);
                for (long ops : s.operations) {
                    row.append(',').append(ops);
                }
                out.println(row);
            }
        }
    }
}
