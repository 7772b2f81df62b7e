/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.grpc.echo.StreamRequest;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deadlines expire on both sides, and a cancellation from either side reaches the other; the connection
 * keeps serving calls afterwards.
 */
@ExtendWith(LeakCheck.class)
class DeadlineAndCancellationTest {

    @OverTransports
    void expiredDeadlineFailsTheClientAndCancelsTheServerCall(NettyTransport transport) throws Exception {
        HoldingEchoService service = new HoldingEchoService();
        try (GrpcHarness h = GrpcHarness.on(transport).service(service).start()) {
            EchoGrpc.EchoBlockingStub echo = EchoGrpc.newBlockingStub(h.channel());
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> echo.withDeadlineAfter(300, TimeUnit.MILLISECONDS).unary(EchoRequest.getDefaultInstance()));
            assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
            HoldingEchoService.HeldCall held = service.nextHeld();
            assertNotNull(held.deadline, "the deadline did not travel to the server");
            assertEquals("unary", service.nextCancellation());
            assertTrue(held.call.isCancelled());

            assertConnectionStillServes(h, service);
        }
    }

    @OverTransports
    void clientCancellationReachesTheServer(NettyTransport transport) throws Exception {
        HoldingEchoService service = new HoldingEchoService();
        try (GrpcHarness h = GrpcHarness.on(transport).service(service).start()) {
            AtomicReference<ClientCallStreamObserver<StreamRequest>> request = new AtomicReference<>();
            AtomicInteger received = new AtomicInteger();
            CountDownLatch gotAll = new CountDownLatch(1);
            Answers<EchoResponse> outcome = new Answers<>();
            StreamRequest fiveThenHold = StreamRequest.newBuilder().setMessageBytes(100).setCount(5).build();
            EchoGrpc.newStub(h.channel()).serverStream(fiveThenHold,
                    new ClientResponseObserver<StreamRequest, EchoResponse>() {
                        @Override
                        public void beforeStart(ClientCallStreamObserver<StreamRequest> requestStream) {
                            request.set(requestStream);
                        }

                        @Override
                        public void onNext(EchoResponse value) {
                            if (received.incrementAndGet() == 5) {
                                gotAll.countDown();
                            }
                        }

                        @Override
                        public void onError(Throwable t) {
                            outcome.onError(t);
                        }

                        @Override
                        public void onCompleted() {
                            outcome.onCompleted();
                        }
                    });
            assertTrue(gotAll.await(30, TimeUnit.SECONDS), "the 5 streamed messages did not arrive");
            HoldingEchoService.HeldCall held = service.nextHeld();
            request.get().cancel("the test cancels", null);
            Status status = outcome.awaitFailure(30);
            assertEquals(Status.Code.CANCELLED, status.getCode());
            assertEquals("serverStream", service.nextCancellation());
            assertTrue(held.call.isCancelled());

            assertConnectionStillServes(h, service);
        }
    }

    @OverTransports
    void serverCancellationReachesTheClient(NettyTransport transport) throws Exception {
        HoldingEchoService service = new HoldingEchoService();
        try (GrpcHarness h = GrpcHarness.on(transport).service(service).start()) {
            Answers<EchoResponse> answers = new Answers<>();
            EchoGrpc.newStub(h.channel()).withDeadlineAfter(60, TimeUnit.SECONDS)
                    .serverStream(StreamRequest.newBuilder().setMessageBytes(1000).setCount(3).build(), answers);
            HoldingEchoService.HeldCall held = service.nextHeld();
            held.call.onError(Status.CANCELLED.withDescription("the server gives up").asRuntimeException());
            Status status = answers.awaitFailure(30);
            assertEquals(Status.Code.CANCELLED, status.getCode());
            assertEquals("the server gives up", status.getDescription());
            assertEquals(3, answers.count(), "messages sent before the server cancelled");

            assertConnectionStillServes(h, service);
        }
    }

    private static void assertConnectionStillServes(GrpcHarness h, HoldingEchoService service) throws Exception {
        Answers<EchoResponse> answer = new Answers<>();
        EchoGrpc.newStub(h.channel()).withDeadlineAfter(30, TimeUnit.SECONDS)
                .unary(EchoRequest.newBuilder().setPayload(Payloads.of(64)).build(), answer);
        service.nextHeld().answer();
        assertEquals(Payloads.of(64), answer.awaitCompletion(30).get(0).getPayload());
    }
}
