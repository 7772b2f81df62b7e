/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.grpc.echo.StreamRequest;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One endless server stream of equal messages, under gRPC's flow control; counts the messages that arrive
 * inside the measurement window, then cancels the stream.
 */
final class StreamLoad implements ClientResponseObserver<StreamRequest, EchoResponse> {
    private final EchoGrpc.EchoStub stub;
    private final int size;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile ClientCallStreamObserver<StreamRequest> call;
    private volatile Throwable failure;
    private MeasurementWindow window;
    private long messages;
    private long wrongSize;

    StreamLoad(EchoGrpc.EchoStub stub, int size) {
        this.stub = stub;
        this.size = size;
    }

    /** Runs warm-up then measurement; returns the messages received during the measurement. */
    long run(double warmupSeconds, double measureSeconds) throws Exception {
        window = new MeasurementWindow(warmupSeconds, measureSeconds);
        stub.serverStream(StreamRequest.newBuilder().setMessageBytes(size).setCount(0).build(), this);
        window.sleepThrough();
        call.cancel("the measurement is over", null);
        if (!ended.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the stream did not end within 60 s of its cancellation");
        }
        Throwable t = failure;
        if (t != null && Status.fromThrowable(t).getCode() != Status.Code.CANCELLED) {
            throw new IllegalStateException("the stream failed: " + t, t);
        }
        if (wrongSize > 0) {
            throw new IllegalStateException(wrongSize + " messages were not " + size + " bytes long");
        }
        return messages;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<StreamRequest> requestStream) {
        call = requestStream;
    }

    @Override
    public void onNext(EchoResponse value) {
        if (window.contains(System.nanoTime())) {
            messages++;
        }
        if (value.getPayload().size() != size) {
            wrongSize++;
        }
    }

    @Override
    public void onError(Throwable t) {
        failure = t;
        ended.countDown();
    }

    @Override
    public void onCompleted() {
        failure = new IllegalStateException("the endless stream completed");
        ended.countDown();
    }
}
