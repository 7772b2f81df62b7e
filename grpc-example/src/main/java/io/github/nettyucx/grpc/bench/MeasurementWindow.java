/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import java.util.concurrent.TimeUnit;

/**
 * The warm-up and measurement periods of one scenario. The client JVM prints {@code WINDOW start} and
 * {@code WINDOW end} when the measurement begins and ends, so that the coordinator can read the CPU time
 * both JVMs used in between.
 */
final class MeasurementWindow {
    static final String START = "WINDOW start";
    static final String END = "WINDOW end";

    final long start;
    final long end;

    MeasurementWindow(double warmupSeconds, double measureSeconds) {
        this.start = System.nanoTime() + (long) (warmupSeconds * 1e9);
        this.end = start + (long) (measureSeconds * 1e9);
    }

    boolean contains(long nanoTime) {
        return nanoTime >= start && nanoTime < end;
    }

    /** Sleeps through the warm-up and the measurement, marking both ends on standard output. */
    void sleepThrough() throws InterruptedException {
        sleepUntil(start);
        mark(START);
        sleepUntil(end);
        mark(END);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    private static void mark(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
