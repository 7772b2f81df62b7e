/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.grpc.echo.StreamRequest;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An echo service that does not answer on its own: unary calls are held until the test answers them, and
 * server streams send {@code count} messages and then stay open. Records the deadline each call arrived with
 * and every cancellation the server sees.
 */
final class HoldingEchoService extends EchoGrpc.EchoImplBase {
    final BlockingQueue<HeldCall> held = new LinkedBlockingQueue<>();
    final BlockingQueue<String> cancelled = new LinkedBlockingQueue<>();

    @Override
    public void unary(EchoRequest request, StreamObserver<EchoResponse> responseObserver) {
        hold("unary", request, (ServerCallStreamObserver<EchoResponse>) responseObserver);
    }

    @Override
    public void serverStream(StreamRequest request, StreamObserver<EchoResponse> responseObserver) {
        ServerCallStreamObserver<EchoResponse> call = (ServerCallStreamObserver<EchoResponse>) responseObserver;
        for (long i = 0; i < request.getCount(); i++) {
            call.onNext(EchoResponse.newBuilder().setPayload(Payloads.of(request.getMessageBytes())).build());
        }
        hold("serverStream", EchoRequest.getDefaultInstance(), call);
    }

    private void hold(String method, EchoRequest request, ServerCallStreamObserver<EchoResponse> call) {
        call.setOnCancelHandler(() -> cancelled.add(method));
        held.add(new HeldCall(request, call, Context.current().getDeadline()));
    }

    HeldCall nextHeld() throws InterruptedException {
        HeldCall call = held.poll(30, TimeUnit.SECONDS);
        if (call == null) {
            throw new AssertionError("no call reached the server within 30 s");
        }
        return call;
    }

    String nextCancellation() throws InterruptedException {
        String method = cancelled.poll(30, TimeUnit.SECONDS);
        if (method == null) {
            throw new AssertionError("the server saw no cancellation within 30 s");
        }
        return method;
    }

    static final class HeldCall {
        final EchoRequest request;
        final ServerCallStreamObserver<EchoResponse> call;
        /** The deadline the call carried from the client, or null. */
        final Deadline deadline;

        HeldCall(EchoRequest request, ServerCallStreamObserver<EchoResponse> call, Deadline deadline) {
            this.request = request;
            this.call = call;
            this.deadline = deadline;
        }

        void answer() {
            call.onNext(EchoResponse.newBuilder().setPayload(request.getPayload()).build());
            call.onCompleted();
        }
    }
}
