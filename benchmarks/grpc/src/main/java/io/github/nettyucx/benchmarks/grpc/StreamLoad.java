/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.grpc.echo.StreamRequest;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One endless server stream of equal messages under gRPC's flow control, counting every message that arrives;
 * cancelled when the load stops.
 */
final class StreamLoad extends Load implements ClientResponseObserver<StreamRequest, EchoResponse> {
    private final EchoGrpc.EchoStub stub;
    private final int size;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile ClientCallStreamObserver<StreamRequest> call;

    StreamLoad(Channel channel, int size) {
        this.stub = EchoGrpc.newStub(channel);
        this.size = size;
    }

    @Override
    protected void begin() {
        stub.serverStream(StreamRequest.newBuilder().setMessageBytes(size).setCount(0).build(), this);
    }

    @Override
    protected void stop() {
        call.cancel("the measurement is over", null);
    }

    @Override
    protected boolean awaitEnd(long timeout, TimeUnit unit) throws InterruptedException {
        return ended.await(timeout, unit);
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<StreamRequest> requestStream) {
        call = requestStream;
    }

    @Override
    public void onNext(EchoResponse value) {
        messageReceived();
        if (value.getPayload().size() != size) {
            failed(new IllegalStateException("a message of " + value.getPayload().size() + " bytes; "
                    + size + " were asked for"));
        }
    }

    @Override
    public void onError(Throwable t) {
        // The cancellation that stops the load ends the stream with CANCELLED: that is no failure.
        if (!stopping() || Status.fromThrowable(t).getCode() != Status.Code.CANCELLED) {
            failed(t);
        }
        ended.countDown();
    }

    @Override
    public void onCompleted() {
        failed(new IllegalStateException("the endless stream completed"));
        ended.countDown();
    }
}
