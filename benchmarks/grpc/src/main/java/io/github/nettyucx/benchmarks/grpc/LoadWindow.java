/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;

/**
 * What a running {@link Load} did over one period: how long the period was, how many calls or messages
 * completed in it, and the round trips of the calls that completed in it.
 */
final class LoadWindow {
    final long nanos;
    final long operations;
    final Histogram roundTrips;

    private LoadWindow(long nanos, long operations, Histogram roundTrips) {
        this.nanos = nanos;
        this.operations = operations;
        this.roundTrips = roundTrips;
    }

    /**
     * Watches {@code load} for {@code nanos}, sleeping meanwhile.
     *
     * @throws IllegalStateException when a call of the load failed before or during the period
     */
    static LoadWindow over(Load load, long nanos) throws InterruptedException {
        load.check();
        load.roundTripsSinceLastRead();
        long startCount = load.completed();
        long start = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(nanos);
        Histogram roundTrips = load.roundTripsSinceLastRead();
        long operations = load.completed() - startCount;
        long elapsed = System.nanoTime() - start;
        load.check();
        return new LoadWindow(elapsed, operations, roundTrips);
    }

    double seconds() {
        return nanos / 1e9;
    }

    /** Calls or messages per second. */
    double rate() {
        return operations / seconds();
    }
}
