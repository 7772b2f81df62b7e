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
import io.github.nettyucx.support.NettyTransport;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The four kinds of gRPC call carry every message, intact and in order. */
@ExtendWith(LeakCheck.class)
class CallKindsTest {

    @OverTransports
    void unary(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService()).start()) {
            EchoGrpc.EchoBlockingStub echo = EchoGrpc.newBlockingStub(h.channel());
            for (int size : new int[] {0, 1, 16, 1024, 65536, 300_000}) {
                ByteString payload = Payloads.of(size);
                EchoResponse r = echo.withDeadlineAfter(30, TimeUnit.SECONDS)
                        .unary(EchoRequest.newBuilder().setPayload(payload).build());
                assertEquals(payload, r.getPayload(), "echo of " + size + " bytes");
            }
            EchoResponse sized = echo.withDeadlineAfter(30, TimeUnit.SECONDS)
                    .unary(EchoRequest.newBuilder().setResponseBytes(5000).build());
            assertEquals(Payloads.of(5000), sized.getPayload());
        }
    }

    @OverTransports
    void serverStreaming(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService()).start()) {
            Iterator<EchoResponse> stream = EchoGrpc.newBlockingStub(h.channel())
                    .withDeadlineAfter(60, TimeUnit.SECONDS)
                    .serverStream(StreamRequest.newBuilder().setMessageBytes(8192).setCount(2000).build());
            int count = 0;
            while (stream.hasNext()) {
                assertEquals(Payloads.of(8192), stream.next().getPayload(), "message " + count);
                count++;
            }
            assertEquals(2000, count);
        }
    }

    @OverTransports
    void clientStreaming(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService()).start()) {
            Answers<StreamSummary> answer = new Answers<>();
            StreamObserver<EchoRequest> upload = EchoGrpc.newStub(h.channel()).withDeadlineAfter(60, TimeUnit.SECONDS)
                    .clientStream(answer);
            long bytes = 0;
            for (int i = 0; i < 1000; i++) {
                int size = (i * 97) % 20_000;
                upload.onNext(EchoRequest.newBuilder().setPayload(Payloads.of(size)).build());
                bytes += size;
            }
            upload.onCompleted();
            StreamSummary summary = answer.awaitCompletion(60).get(0);
            assertEquals(1000, summary.getMessages());
            assertEquals(bytes, summary.getBytes());
        }
    }

    @OverTransports
    void bidirectionalStreamingAnswersInOrder(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService()).start()) {
            Answers<EchoResponse> answers = new Answers<>();
            StreamObserver<EchoRequest> requests = EchoGrpc.newStub(h.channel()).withDeadlineAfter(60, TimeUnit.SECONDS)
                    .bidi(answers);
            List<ByteString> sent = new ArrayList<>();
            // Half of the requests go out in a burst, the rest as ping-pong, so both the pipelined and the
            // lock-step paths are covered.
            for (int i = 0; i < 200; i++) {
                ByteString payload = ByteString.copyFrom("message " + i + " ", StandardCharsets.UTF_8)
                        .concat(Payloads.of(i * 50));
                sent.add(payload);
                requests.onNext(EchoRequest.newBuilder().setPayload(payload).build());
            }
            for (int i = 200; i < 300; i++) {
                ByteString payload = ByteString.copyFrom("message " + i, StandardCharsets.UTF_8);
                sent.add(payload);
                requests.onNext(EchoRequest.newBuilder().setPayload(payload).build());
                answers.awaitCount(i + 1, 30);
            }
            requests.onCompleted();
            List<EchoResponse> received = answers.awaitCompletion(60);
            assertEquals(sent.size(), received.size());
            for (int i = 0; i < sent.size(); i++) {
                assertEquals(sent.get(i), received.get(i).getPayload(), "answer " + i);
            }
            assertFalse(answers.failed());
        }
    }
}
