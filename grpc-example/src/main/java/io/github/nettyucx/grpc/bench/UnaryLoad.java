/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import io.github.nettyucx.grpc.Payloads;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.grpc.stub.StreamObserver;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Keeps {@code concurrency} unary echo calls in flight on one channel: each lane starts its next call when
 * the previous one answers. Round trips of calls that start inside the measurement window are recorded.
 */
final class UnaryLoad {
    private final EchoGrpc.EchoStub stub;
    private final EchoRequest request;
    private final int concurrency;

    UnaryLoad(EchoGrpc.EchoStub stub, int size, int concurrency) {
        this.stub = stub;
        this.request = EchoRequest.newBuilder().setPayload(Payloads.of(size)).build();
        this.concurrency = concurrency;
    }

    /** Runs warm-up then measurement; returns every recorded round trip in nanoseconds, unsorted. */
    long[] run(double warmupSeconds, double measureSeconds) throws Exception {
        MeasurementWindow window = new MeasurementWindow(warmupSeconds, measureSeconds);
        CountDownLatch finished = new CountDownLatch(concurrency);
        Lane[] lanes = new Lane[concurrency];
        for (int i = 0; i < concurrency; i++) {
            lanes[i] = new Lane(window, finished);
            lanes[i].next();
        }
        window.sleepThrough();
        if (!finished.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("calls still unanswered 60 s after the measurement ended");
        }
        int total = 0;
        for (Lane lane : lanes) {
            if (lane.failure != null) {
                throw new IllegalStateException("a call failed: " + lane.failure, lane.failure);
            }
            total += lane.count;
        }
        long[] all = new long[total];
        int at = 0;
        for (Lane lane : lanes) {
            System.arraycopy(lane.latencies, 0, all, at, lane.count);
            at += lane.count;
        }
        return all;
    }

    /** One call at a time; gRPC delivers its callbacks one after another, so the fields need no locking. */
    private final class Lane implements StreamObserver<EchoResponse> {
        private final MeasurementWindow window;
        private final CountDownLatch finished;
        long[] latencies = new long[4096];
        int count;
        volatile Throwable failure;
        private long started;

        Lane(MeasurementWindow window, CountDownLatch finished) {
            this.window = window;
            this.finished = finished;
        }

        void next() {
            started = System.nanoTime();
            if (started >= window.end) {
                finished.countDown();
                return;
            }
            stub.unary(request, this);
        }

        @Override
        public void onNext(EchoResponse value) {
            if (value.getPayload().size() != request.getPayload().size()) {
                failure = new IllegalStateException("answer of " + value.getPayload().size() + " bytes to a request of "
                        + request.getPayload().size());
            }
        }

        @Override
        public void onError(Throwable t) {
            failure = t;
            finished.countDown();
        }

        @Override
        public void onCompleted() {
            long now = System.nanoTime();
            if (started >= window.start) {
                if (count == latencies.length) {
                    latencies = Arrays.copyOf(latencies, count * 2);
                }
                latencies[count++] = now - started;
            }
            if (failure != null) {
                finished.countDown();
                return;
            }
            next();
        }
    }
}
