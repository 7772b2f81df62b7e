/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import com.google.protobuf.ByteString;
import io.github.nettyucx.grpc.interop.Empty;
import io.github.nettyucx.grpc.interop.InteropServiceGrpc;
import io.github.nettyucx.grpc.interop.Payload;
import io.github.nettyucx.grpc.interop.StatusToEcho;
import io.github.nettyucx.grpc.interop.StreamingInputRequest;
import io.github.nettyucx.grpc.interop.StreamingInputResponse;
import io.github.nettyucx.grpc.interop.StreamingOutputRequest;
import io.github.nettyucx.grpc.interop.StreamingOutputResponse;
import io.github.nettyucx.grpc.interop.UnaryRequest;
import io.github.nettyucx.grpc.interop.UnaryResponse;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

import java.util.ArrayList;
import java.util.List;

/**
 * The server side of the interop-style cases. Payloads carry a byte pattern ({@link #body(int)}) so that a
 * misplaced or lost chunk shows. With {@link #withMetadataEcho()}, the headers {@link #ECHO_INITIAL} and
 * {@link #ECHO_TRAILING} come back in the response headers and trailers.
 */
final class InteropServiceImpl extends InteropServiceGrpc.InteropServiceImplBase {
    static final Metadata.Key<String> ECHO_INITIAL =
            Metadata.Key.of("x-grpc-test-echo-initial", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<byte[]> ECHO_TRAILING =
            Metadata.Key.of("x-grpc-test-echo-trailing-bin", Metadata.BINARY_BYTE_MARSHALLER);

    /** Bytes in a pattern without a short period, so that a chunk out of place shows. */
    static ByteString body(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 7 + i / 253);
        }
        return ByteString.copyFrom(bytes);
    }

    static Payload payload(int size) {
        return Payload.newBuilder().setBody(body(size)).build();
    }

    ServerServiceDefinition withMetadataEcho() {
        return ServerInterceptors.intercept(this, new MetadataEcho());
    }

    @Override
    public void emptyCall(Empty request, StreamObserver<Empty> responses) {
        responses.onNext(Empty.getDefaultInstance());
        responses.onCompleted();
    }

    @Override
    public void unaryCall(UnaryRequest request, StreamObserver<UnaryResponse> responses) {
        if (request.hasResponseStatus()) {
            responses.onError(status(request.getResponseStatus()).asRuntimeException());
            return;
        }
        responses.onNext(UnaryResponse.newBuilder().setPayload(payload(request.getResponseSize())).build());
        responses.onCompleted();
    }

    @Override
    public void streamingOutputCall(StreamingOutputRequest request,
                                    StreamObserver<StreamingOutputResponse> responses) {
        answer(request, responses);
        end(request, responses);
    }

    @Override
    public StreamObserver<StreamingInputRequest> streamingInputCall(
            StreamObserver<StreamingInputResponse> responses) {
        return new StreamObserver<>() {
            private long received;

            @Override
            public void onNext(StreamingInputRequest request) {
                received += request.getPayload().getBody().size();
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                responses.onNext(StreamingInputResponse.newBuilder().setAggregatedPayloadSize(received).build());
                responses.onCompleted();
            }
        };
    }

    @Override
    public StreamObserver<StreamingOutputRequest> fullDuplexCall(
            StreamObserver<StreamingOutputResponse> responses) {
        return new StreamObserver<>() {
            private StreamingOutputRequest last;

            @Override
            public void onNext(StreamingOutputRequest request) {
                last = request;
                answer(request, responses);
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                end(last, responses);
            }
        };
    }

    @Override
    public StreamObserver<StreamingOutputRequest> halfDuplexCall(
            StreamObserver<StreamingOutputResponse> responses) {
        return new StreamObserver<>() {
            private final List<StreamingOutputRequest> requests = new ArrayList<>();

            @Override
            public void onNext(StreamingOutputRequest request) {
                requests.add(request);
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                for (StreamingOutputRequest request : requests) {
                    answer(request, responses);
                }
                end(requests.isEmpty() ? null : requests.get(requests.size() - 1), responses);
            }
        };
    }

    private static void answer(StreamingOutputRequest request, StreamObserver<StreamingOutputResponse> responses) {
        for (int size : request.getResponseSizesList()) {
            responses.onNext(StreamingOutputResponse.newBuilder().setPayload(payload(size)).build());
        }
    }

    /** OK, or the status the last request asked for. */
    private static void end(StreamingOutputRequest last, StreamObserver<?> responses) {
        if (last != null && last.hasResponseStatus()) {
            responses.onError(status(last.getResponseStatus()).asRuntimeException());
        } else {
            responses.onCompleted();
        }
    }

    private static Status status(StatusToEcho echo) {
        return Status.fromCodeValue(echo.getCode()).withDescription(echo.getMessage());
    }

    /** Sends the echo headers back: the initial one in the response headers, the trailing one in the trailers. */
    private static final class MetadataEcho implements ServerInterceptor {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                         ServerCallHandler<Q, R> next) {
            return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                @Override
                public void sendHeaders(Metadata responseHeaders) {
                    copy(headers, ECHO_INITIAL, responseHeaders);
                    super.sendHeaders(responseHeaders);
                }

                @Override
                public void close(Status status, Metadata trailers) {
                    copy(headers, ECHO_TRAILING, trailers);
                    super.close(status, trailers);
                }
            }, headers);
        }

        private static <T> void copy(Metadata from, Metadata.Key<T> key, Metadata to) {
            T value = from.get(key);
            if (value != null) {
                to.put(key, value);
            }
        }
    }
}
