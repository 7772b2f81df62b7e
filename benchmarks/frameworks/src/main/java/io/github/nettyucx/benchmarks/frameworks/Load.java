/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.benchmarks.core.ResultRow;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Drives one scenario against a client: application threads in a closed loop (each call waits for its answer),
 * or one thread reading a stream; records latency in an HdrHistogram {@link Recorder} and, between
 * {@link #beginWindow()} and {@link #endWindow}, what the window measured.
 */
final class Load implements AutoCloseable {
    private static final long MAX_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final Framework.Client client;
    private final Scenario scenario;
    private final Recorder recorder = new Recorder(MAX_LATENCY_NANOS, 3);
    private final LongAdder bytes = new LongAdder();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stop;
    private AutoCloseable idle;
    private long windowStartNanos;
    private long windowStartBytes;
    private long windowStartCpu;
    /** This JVM's UCX event loop wake-ups by eventfd writes, or null when the transport is not UCX. */
    private final LongSupplier wakeupWrites;
    private long windowStartWakeups;

    Load(Framework.Client client, Scenario scenario, LongSupplier wakeupWrites) {
        this.client = client;
        this.scenario = scenario;
        this.wakeupWrites = wakeupWrites;
    }

    /** Starts the scenario's threads; they run until {@link #close()}. */
    Load start() throws Exception {
        idle = client.idleConnections(scenario.idleConnections());
        for (int i = 0; i < scenario.threads(); i++) {
            Thread t = new Thread(body(), "load-" + scenario.name() + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        return this;
    }

    private Runnable body() {
        switch (scenario.kind()) {
            case CALL:
                return this::callLoop;
            case STREAM:
                return () -> run(() -> client.stream(scenario.bytes(), bytes::add, () -> stop));
            case LOOP_PING_PONG:
                return () -> run(() -> client.loopPingPong(scenario.bytes(), this::record, () -> stop));
            default:
                return () -> run(() -> client.upload(scenario.bytes(), bytes::add, () -> stop));
        }
    }

    private void record(long nanos) {
        recorder.recordValue(Math.min(nanos, MAX_LATENCY_NANOS));
    }

    private void callLoop() {
        byte[] body = new byte[scenario.bytes()];
        ThreadLocalRandom.current().nextBytes(body);
        try {
            while (!stop) {
                long start = System.nanoTime();
                client.call(body);
                record(System.nanoTime() - start);
            }
        } catch (Throwable t) {
            failed(t);
        }
    }

    private void run(Action action) {
        try {
            action.run();
        } catch (Throwable t) {
            failed(t);
        }
    }

    /** What a load thread does. */
    private interface Action {
        void run() throws Exception;
    }

    private void failed(Throwable t) {
        failure.compareAndSet(null, t);
    }

    void beginWindow() {
        check();
        recorder.getIntervalHistogram();
        windowStartBytes = bytes.sum();
        windowStartCpu = ownCpuNanos();
        windowStartWakeups = wakeupWrites == null ? 0 : wakeupWrites.getAsLong();
        windowStartNanos = System.nanoTime();
    }

    /** What the window measured, into {@code row}. */
    void endWindow(ResultRow row) {
        long elapsed = System.nanoTime() - windowStartNanos;
        Histogram h = recorder.getIntervalHistogram();
        long cpu = ownCpuNanos() - windowStartCpu;
        long wakeups = wakeupWrites == null ? 0 : wakeupWrites.getAsLong() - windowStartWakeups;
        long streamed = bytes.sum() - windowStartBytes;
        check();
        double seconds = elapsed / 1e9;
        row.put(Results.CLIENT_CPU_MS, cpu / 1e6);
        if (scenario.kind() == Scenario.Kind.IDLE) {
            return;
        }
        if (scenario.measuresBytes()) {
            row.put(Results.MB_PER_S, streamed / 1e6 / seconds);
            return;
        }
        row.put(Results.CALLS, h.getTotalCount());
        row.put(Results.CALLS_PER_S, h.getTotalCount() / seconds);
        row.put(Results.P50_US, h.getValueAtPercentile(50) / 1e3);
        row.put(Results.P99_US, h.getValueAtPercentile(99) / 1e3);
        if (wakeupWrites != null && scenario.kind() == Scenario.Kind.CALL && h.getTotalCount() > 0) {
            row.put(Results.WAKEUPS_PER_CALL, (double) wakeups / h.getTotalCount());
        }
    }

    private void check() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException(scenario.name() + " failed: " + t, t);
        }
    }

    private static long ownCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos()).orElse(0L);
    }

    @Override
    public void close() {
        stop = true;
        for (Thread t : threads) {
            Framework.awaitQuietly(() -> t.join(TimeUnit.SECONDS.toMillis(30)));
            if (t.isAlive()) {
                throw new IllegalStateException(t.getName() + " did not stop within 30 s (a call that never answers)");
            }
        }
        check();
        if (idle != null) {
            try {
                idle.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the idle connections failed: " + e, e);
            }
        }
    }
}
