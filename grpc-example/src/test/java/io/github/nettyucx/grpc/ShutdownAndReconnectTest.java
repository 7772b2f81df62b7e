/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A graceful server shutdown lets calls in flight finish; a client reconnects to a restarted server. */
@ExtendWith(LeakCheck.class)
class ShutdownAndReconnectTest {
    private static final int IN_FLIGHT = 5;

    @OverTransports
    void gracefulShutdownFinishesCallsInFlightAndRefusesNewOnes(NettyTransport transport) throws Exception {
        TestTransports.assumeAvailable(transport);
        gracefulShutdown(transport, true);
    }

    /**
     * Holds calls in flight, shuts the server down gracefully, checks that a new call is refused (when
     * {@code checkRefusal}), then answers the held calls: every answer must arrive before the connection ends,
     * and the server terminates.
     */
    static void gracefulShutdown(NettyTransport transport, boolean checkRefusal) throws Exception {
        HoldingEchoService service = new HoldingEchoService();
        try (GrpcHarness h = GrpcHarness.on(transport).service(service).start()) {
            List<Answers<EchoResponse>> answers = new ArrayList<>();
            List<HoldingEchoService.HeldCall> held = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT; i++) {
                Answers<EchoResponse> a = new Answers<>();
                answers.add(a);
                EchoGrpc.newStub(h.channel()).withDeadlineAfter(60, TimeUnit.SECONDS)
                        .unary(EchoRequest.newBuilder().setPayload(Payloads.of(100 + i)).build(), a);
            }
            for (int i = 0; i < IN_FLIGHT; i++) {
                held.add(service.nextHeld());
            }

            h.server().shutdown();
            assertTrue(h.server().isShutdown());
            assertFalse(h.server().awaitTermination(300, TimeUnit.MILLISECONDS),
                    "the server terminated with calls in flight");
            if (checkRefusal) {
                StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
                        () -> EchoGrpc.newBlockingStub(h.channel()).withDeadlineAfter(30, TimeUnit.SECONDS)
                                .unary(EchoRequest.getDefaultInstance()));
                assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode());
            }

            held.forEach(HoldingEchoService.HeldCall::answer);
            for (Answers<EchoResponse> a : answers) {
                EchoResponse r = a.awaitCompletion(30).get(0);
                assertTrue(r.getPayload().size() >= 100);
            }
            assertTrue(h.server().awaitTermination(30, TimeUnit.SECONDS),
                    "the server did not terminate after its last call finished");
        }
    }

    @OverTransports
    void clientReconnectsAfterServerRestartOnTheSamePort(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService()).start()) {
            EchoGrpc.EchoBlockingStub echo = EchoGrpc.newBlockingStub(h.channel());
            EchoRequest request = EchoRequest.newBuilder().setPayload(Payloads.of(256)).build();
            assertEquals(request.getPayload(),
                    echo.withDeadlineAfter(30, TimeUnit.SECONDS).unary(request).getPayload());

            int port = h.port();
            h.killServer();
            StatusRuntimeException down = assertThrows(StatusRuntimeException.class,
                    () -> echo.withDeadlineAfter(30, TimeUnit.SECONDS).unary(request));
            assertEquals(Status.Code.UNAVAILABLE, down.getStatus().getCode());

            h.startServer(port);
            assertEquals(port, h.port());
            // waitForReady: the channel may still be backing off after the failed attempt.
            assertEquals(request.getPayload(), echo.withWaitForReady().withDeadlineAfter(60, TimeUnit.SECONDS)
                    .unary(request).getPayload());
        }
    }
}
