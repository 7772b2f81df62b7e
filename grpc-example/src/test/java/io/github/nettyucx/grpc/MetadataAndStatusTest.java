/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.grpc.kv.GetRequest;
import io.github.nettyucx.grpc.kv.KeyValueGrpc;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Request headers, response headers and trailers (ASCII and binary), and error statuses travel intact. */
@ExtendWith(LeakCheck.class)
class MetadataAndStatusTest {
    private static final Metadata.Key<String> REQUEST_ID = Metadata.Key.of("x-request-id",
            Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<byte[]> BLOB = Metadata.Key.of("x-blob-bin", Metadata.BINARY_BYTE_MARSHALLER);
    private static final Metadata.Key<String> ECHOED_ID = Metadata.Key.of("x-echoed-id",
            Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<byte[]> TRAILER_BLOB = Metadata.Key.of("x-trailer-bin",
            Metadata.BINARY_BYTE_MARSHALLER);
    private static final Metadata.Key<String> REASON = Metadata.Key.of("x-reason", Metadata.ASCII_STRING_MARSHALLER);

    @OverTransports
    void headersAndTrailersBothWays(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport)
                .service(ServerInterceptors.intercept(new EchoService(), new EchoingMetadata())).start()) {
            byte[] blob = Payloads.pattern(3000);
            Metadata request = new Metadata();
            request.put(REQUEST_ID, "req-42");
            request.put(BLOB, blob);
            AtomicReference<Metadata> headers = new AtomicReference<>();
            AtomicReference<Metadata> trailers = new AtomicReference<>();
            EchoGrpc.EchoBlockingStub echo = EchoGrpc.newBlockingStub(ClientInterceptors.intercept(h.channel(),
                    MetadataUtils.newAttachHeadersInterceptor(request),
                    MetadataUtils.newCaptureMetadataInterceptor(headers, trailers)))
                    .withDeadlineAfter(30, TimeUnit.SECONDS);
            echo.unary(EchoRequest.newBuilder().setPayload(Payloads.of(10)).build());

            assertEquals("req-42", headers.get().get(ECHOED_ID));
            assertNotNull(trailers.get(), "no trailers captured");
            assertArrayEquals(blob, trailers.get().get(TRAILER_BLOB));
        }
    }

    @OverTransports
    void errorStatusWithDescriptionAndTrailers(NettyTransport transport) throws Exception {
        EchoService failing = new EchoService() {
            @Override
            public void unary(EchoRequest request, StreamObserver<EchoResponse> responseObserver) {
                Metadata trailers = new Metadata();
                trailers.put(REASON, "quota");
                responseObserver.onError(Status.FAILED_PRECONDITION
                        .withDescription("precondition not met: ünïcode ok").asRuntimeException(trailers));
            }
        };
        try (GrpcHarness h = GrpcHarness.on(transport).service(failing).start()) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> EchoGrpc.newBlockingStub(h.channel()).withDeadlineAfter(30, TimeUnit.SECONDS)
                            .unary(EchoRequest.getDefaultInstance()));
            assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
            assertEquals("precondition not met: ünïcode ok", e.getStatus().getDescription());
            assertEquals("quota", e.getTrailers().get(REASON));
        }
    }

    @OverTransports
    void anExceptionInTheServiceIsUnknownAndAMissingServiceUnimplemented(NettyTransport transport) throws Exception {
        EchoService throwing = new EchoService() {
            @Override
            public void unary(EchoRequest request, StreamObserver<EchoResponse> responseObserver) {
                throw new IllegalStateException("bug in the service");
            }
        };
        try (GrpcHarness h = GrpcHarness.on(transport).service(throwing).start()) {
            EchoGrpc.EchoBlockingStub echo = EchoGrpc.newBlockingStub(h.channel())
                    .withDeadlineAfter(30, TimeUnit.SECONDS);
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> echo.unary(EchoRequest.getDefaultInstance()));
            assertEquals(Status.Code.UNKNOWN, e.getStatus().getCode());
            StatusRuntimeException unimplemented = assertThrows(StatusRuntimeException.class,
                    () -> KeyValueGrpc.newBlockingStub(h.channel()).withDeadlineAfter(30, TimeUnit.SECONDS)
                            .get(GetRequest.newBuilder().setKey("k").build()));
            assertEquals(Status.Code.UNIMPLEMENTED, unimplemented.getStatus().getCode());
        }
    }

    /** Puts the request id back in the response headers and the binary request header in the trailers. */
    private static final class EchoingMetadata implements ServerInterceptor {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata requestHeaders,
                                                         ServerCallHandler<Q, R> next) {
            String id = requestHeaders.get(REQUEST_ID);
            byte[] blob = requestHeaders.get(BLOB);
            return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                @Override
                public void sendHeaders(Metadata headers) {
                    headers.put(ECHOED_ID, id);
                    super.sendHeaders(headers);
                }

                @Override
                public void close(Status status, Metadata trailers) {
                    trailers.put(TRAILER_BLOB, blob);
                    super.close(status, trailers);
                }
            }, requestHeaders);
        }
    }
}
