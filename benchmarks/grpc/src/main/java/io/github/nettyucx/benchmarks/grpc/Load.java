/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.grpc.Channel;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A scenario's load on the client's channel, running from {@link #start} until {@link #close()}: it counts what
 * completes (calls, or streamed messages) and records the round trip of every call in an HdrHistogram
 * {@link Recorder}. Warm-up and measurement read periods of it ({@link LoadWindow}) without stopping it, so a
 * window sees the load in its steady state rather than its start or its end.
 */
abstract class Load implements AutoCloseable {
    /** The histogram's upper bound: a longer round trip is recorded as this. */
    private static final long MAX_RECORDED_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** How long {@link #close()} waits for the calls in flight to end. */
    private static final long STOP_SECONDS = 60;

    private final Recorder roundTrips = new Recorder(MAX_RECORDED_NANOS, 3);
    private final LongAdder completed = new LongAdder();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;

    /** Starts the scenario's load on {@code channel}. */
    static Load start(Scenario scenario, Channel channel) {
        Load load;
        switch (scenario.kind) {
            case UNARY:
                load = new UnaryLoad(channel, scenario.size, scenario.concurrency);
                break;
            case BLOCKING:
                load = new BlockingLoad(channel, scenario.size, scenario.concurrency);
                break;
            default:
                load = new StreamLoad(channel, scenario.size);
                break;
        }
        load.begin();
        return load;
    }

    /** Starts the calls, streams or threads of the load. */
    protected abstract void begin();

    /** Called once {@link #stopping()} is true; ends what does not end by itself (a stream, say). */
    protected void stop() {
    }

    /** Waits until every call of the load has ended after {@link #stop()}; false when the time ran out. */
    protected abstract boolean awaitEnd(long timeout, TimeUnit unit) throws InterruptedException;

    /** Whether the load is ending: no new call may start. */
    protected final boolean stopping() {
        return stopping;
    }

    /** A call answered after {@code nanos}. */
    protected final void callCompleted(long nanos) {
        roundTrips.recordValue(Math.min(Math.max(nanos, 0), MAX_RECORDED_NANOS));
        completed.increment();
    }

    /** A streamed message arrived. */
    protected final void messageReceived() {
        completed.increment();
    }

    /** Something went wrong; the first failure is what {@link #check()} reports. */
    protected final void failed(Throwable t) {
        failure.compareAndSet(null, t);
    }

    /** Calls answered or messages received since the load started. */
    final long completed() {
        return completed.sum();
    }

    /** The round trips recorded since the previous call of this method (or since the start). */
    final Histogram roundTripsSinceLastRead() {
        return roundTrips.getIntervalHistogram();
    }

    /** @throws IllegalStateException with the first failure of a call, if any */
    final void check() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException(getClass().getSimpleName() + " failed: " + t, t);
        }
    }

    /** Stops the load, waits for its calls to end and reports a failure they had. */
    @Override
    public final void close() {
        stopping = true;
        stop();
        boolean ended;
        try {
            ended = awaitEnd(STOP_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + getClass().getSimpleName() + " was stopping", e);
        }
        if (!ended) {
            check();
            throw new IllegalStateException(getClass().getSimpleName() + ": calls still unanswered " + STOP_SECONDS
                    + " s after the load was told to stop (a call that never answers?)");
        }
        check();
    }
}
