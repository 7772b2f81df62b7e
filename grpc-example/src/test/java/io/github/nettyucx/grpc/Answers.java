/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Collects what a call answers, and lets a test wait for a number of messages or for the end. */
final class Answers<T> implements StreamObserver<T> {
    private final List<T> messages = new ArrayList<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile Throwable error;

    @Override
    public synchronized void onNext(T value) {
        messages.add(value);
        notifyAll();
    }

    @Override
    public void onError(Throwable t) {
        error = t;
        done.countDown();
        synchronized (this) {
            notifyAll();
        }
    }

    @Override
    public void onCompleted() {
        done.countDown();
        synchronized (this) {
            notifyAll();
        }
    }

    /** Waits for a successful end and returns every message. */
    List<T> awaitCompletion(long seconds) throws InterruptedException {
        if (!done.await(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the call did not end within " + seconds + " s; " + count() + " messages so far");
        }
        if (error != null) {
            throw new AssertionError("the call failed: " + error, error);
        }
        return snapshot();
    }

    /** Waits for the call to fail and returns its status. */
    Status awaitFailure(long seconds) throws InterruptedException {
        if (!done.await(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the call did not end within " + seconds + " s");
        }
        if (error == null) {
            throw new AssertionError("the call completed, a failure was expected");
        }
        return Status.fromThrowable(error);
    }

    synchronized void awaitCount(int n, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (messages.size() < n) {
            if (error != null) {
                throw new AssertionError("the call failed after " + messages.size() + " messages: " + error, error);
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("only " + messages.size() + " of " + n + " messages within " + seconds + " s");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    synchronized int count() {
        return messages.size();
    }

    synchronized List<T> snapshot() {
        return new ArrayList<>(messages);
    }

    boolean failed() {
        return error != null;
    }

    boolean ended() {
        return done.getCount() == 0;
    }
}
