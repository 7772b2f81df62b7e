/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.grpc.Payloads;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.grpc.Channel;
import io.grpc.stub.StreamObserver;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Keeps {@code concurrency} unary echo calls in flight on one channel with an async stub: each lane starts its
 * next call from the callback of the previous one, so no application thread waits. The callbacks run where the
 * channel's executor puts them (the event loop with {@code directExecutor()}).
 */
final class UnaryLoad extends Load {
    private final EchoGrpc.EchoStub stub;
    private final EchoRequest request;
    private final int concurrency;
    private final CountDownLatch lanesEnded;

    UnaryLoad(Channel channel, int size, int concurrency) {
        this.stub = EchoGrpc.newStub(channel);
        this.request = EchoRequest.newBuilder().setPayload(Payloads.of(size)).build();
        this.concurrency = concurrency;
        this.lanesEnded = new CountDownLatch(concurrency);
    }

    @Override
    protected void begin() {
        for (int i = 0; i < concurrency; i++) {
            new Lane().next();
        }
    }

    @Override
    protected boolean awaitEnd(long timeout, TimeUnit unit) throws InterruptedException {
        return lanesEnded.await(timeout, unit);
    }

    /** One call at a time; gRPC delivers a call's callbacks one after another, so the fields need no locking. */
    private final class Lane implements StreamObserver<EchoResponse> {
        private long started;
        private boolean wrongAnswer;

        void next() {
            if (stopping()) {
                lanesEnded.countDown();
                return;
            }
            started = System.nanoTime();
            stub.unary(request, this);
        }

        @Override
        public void onNext(EchoResponse value) {
            if (value.getPayload().size() != request.getPayload().size()) {
                wrongAnswer = true;
                failed(new IllegalStateException("answer of " + value.getPayload().size()
                        + " bytes to a request of " + request.getPayload().size()));
            }
        }

        @Override
        public void onError(Throwable t) {
            failed(t);
            lanesEnded.countDown();
        }

        @Override
        public void onCompleted() {
            callCompleted(System.nanoTime() - started);
            if (wrongAnswer) {
                lanesEnded.countDown();
                return;
            }
            next();
        }
    }
}
