/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import com.google.protobuf.ByteString;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.grpc.echo.StreamRequest;
import io.github.nettyucx.grpc.echo.StreamSummary;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/** The echo service: every kind of gRPC call, with the sizes the client asks for. Also the benchmark server. */
public class EchoService extends EchoGrpc.EchoImplBase {

    @Override
    public void unary(EchoRequest request, StreamObserver<EchoResponse> responseObserver) {
        responseObserver.onNext(answer(request));
        responseObserver.onCompleted();
    }

    @Override
    public void serverStream(StreamRequest request, StreamObserver<EchoResponse> responseObserver) {
        if (request.getMessageBytes() < 0 || request.getCount() < 0) {
            responseObserver.onError(Status.INVALID_ARGUMENT
                    .withDescription("message_bytes and count must not be negative").asRuntimeException());
            return;
        }
        ServerCallStreamObserver<EchoResponse> call = (ServerCallStreamObserver<EchoResponse>) responseObserver;
        new FlowControlledSender(call, EchoResponse.newBuilder().setPayload(Payloads.of(request.getMessageBytes()))
                .build(), request.getCount()).start();
    }

    @Override
    public StreamObserver<EchoRequest> clientStream(StreamObserver<StreamSummary> responseObserver) {
        return new StreamObserver<>() {
            private long messages;
            private long bytes;

            @Override
            public void onNext(EchoRequest value) {
                messages++;
                bytes += value.getPayload().size();
            }

            @Override
            public void onError(Throwable t) {
                // The client went away or cancelled: nothing to answer.
            }

            @Override
            public void onCompleted() {
                responseObserver.onNext(StreamSummary.newBuilder().setMessages(messages).setBytes(bytes).build());
                responseObserver.onCompleted();
            }
        };
    }

    @Override
    public StreamObserver<EchoRequest> bidi(StreamObserver<EchoResponse> responseObserver) {
        return new StreamObserver<>() {
            @Override
            public void onNext(EchoRequest value) {
                responseObserver.onNext(answer(value));
            }

            @Override
            public void onError(Throwable t) {
                // The client went away or cancelled: nothing to answer.
            }

            @Override
            public void onCompleted() {
                responseObserver.onCompleted();
            }
        };
    }

    private static EchoResponse answer(EchoRequest request) {
        ByteString payload = request.getResponseBytes() > 0 ? Payloads.of(request.getResponseBytes())
                : request.getPayload();
        return EchoResponse.newBuilder().setPayload(payload).build();
    }

    /**
     * Sends one message over and over while the call is ready, so that a fast server never buffers more
     * than gRPC's flow control allows; stops after {@code count} messages (0: when the client cancels).
     * gRPC runs the ready and cancel callbacks one at a time for a call, so the fields need no locking.
     */
    private static final class FlowControlledSender {
        private final ServerCallStreamObserver<EchoResponse> call;
        private final EchoResponse message;
        private final long count;
        private long sent;
        private boolean done;

        FlowControlledSender(ServerCallStreamObserver<EchoResponse> call, EchoResponse message, long count) {
            this.call = call;
            this.message = message;
            this.count = count;
        }

        void start() {
            call.setOnCancelHandler(() -> done = true);
            call.setOnReadyHandler(this::drain);
        }

        private void drain() {
            while (!done) {
                if (count > 0 && sent == count) {
                    done = true;
                    call.onCompleted();
                    return;
                }
                if (!call.isReady()) {
                    return;
                }
                call.onNext(message);
                sent++;
            }
        }
    }
}
