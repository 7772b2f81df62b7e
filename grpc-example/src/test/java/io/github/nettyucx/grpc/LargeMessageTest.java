/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import com.google.protobuf.ByteString;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** 16 MiB messages pass once both sides raise gRPC's 4 MiB default, and are refused cleanly when not. */
@ExtendWith(LeakCheck.class)
class LargeMessageTest {
    private static final int SIXTEEN_MIB = 16 << 20;
    /** Room for the 16 MiB payload plus the protobuf framing around it. */
    private static final int MAX_MESSAGE = SIXTEEN_MIB + 1024;

    @OverTransports
    void sixteenMebibyteMessagesBothWays(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService())
                .server(b -> b.maxInboundMessageSize(MAX_MESSAGE))
                .channel(b -> b.maxInboundMessageSize(MAX_MESSAGE)).start()) {
            ByteString payload = Payloads.of(SIXTEEN_MIB);
            EchoResponse unary = EchoGrpc.newBlockingStub(h.channel()).withDeadlineAfter(60, TimeUnit.SECONDS)
                    .unary(EchoRequest.newBuilder().setPayload(payload).build());
            assertEquals(payload, unary.getPayload());

            // Two in a row on one stream, so a message that starts mid-buffer is covered too.
            Answers<EchoResponse> answers = new Answers<>();
            StreamObserver<EchoRequest> bidi = EchoGrpc.newStub(h.channel()).withDeadlineAfter(60, TimeUnit.SECONDS)
                    .bidi(answers);
            bidi.onNext(EchoRequest.newBuilder().setPayload(Payloads.of(10)).setResponseBytes(SIXTEEN_MIB).build());
            bidi.onNext(EchoRequest.newBuilder().setPayload(payload).build());
            bidi.onCompleted();
            List<EchoResponse> got = answers.awaitCompletion(60);
            assertEquals(2, got.size());
            assertEquals(SIXTEEN_MIB, got.get(0).getPayload().size());
            assertEquals(payload, got.get(1).getPayload());
        }
    }

    @OverTransports
    void aMessageOverTheLimitFailsTheCallNotTheConnection(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService()).start()) {
            EchoGrpc.EchoBlockingStub echo = EchoGrpc.newBlockingStub(h.channel())
                    .withDeadlineAfter(60, TimeUnit.SECONDS);
            StatusRuntimeException tooBig = assertThrows(StatusRuntimeException.class,
                    () -> echo.unary(EchoRequest.newBuilder().setPayload(Payloads.of(SIXTEEN_MIB)).build()));
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, tooBig.getStatus().getCode());
            ByteString small = Payloads.of(1000);
            assertEquals(small, echo.unary(EchoRequest.newBuilder().setPayload(small).build()).getPayload());
        }
    }
}
