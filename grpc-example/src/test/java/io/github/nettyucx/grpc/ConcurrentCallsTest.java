/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.ByteString;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * 1,000 calls in flight at once on one channel (one HTTP/2 connection): the server holds every call until all
 * 1,000 have arrived, then answers them in reverse order, and each answer must reach its own call.
 */
@ExtendWith(LeakCheck.class)
class ConcurrentCallsTest {
    private static final int CALLS = 1000;

    @OverTransports
    void thousandConcurrentCallsOnOneChannel(NettyTransport transport) throws Exception {
        HoldingEchoService service = new HoldingEchoService();
        try (GrpcHarness h = GrpcHarness.on(transport).service(service).start()) {
            EchoGrpc.EchoFutureStub echo = EchoGrpc.newFutureStub(h.channel()).withDeadlineAfter(120, TimeUnit.SECONDS);
            List<ByteString> sent = new ArrayList<>();
            List<ListenableFuture<EchoResponse>> answers = new ArrayList<>();
            for (int i = 0; i < CALLS; i++) {
                ByteString payload = ByteString.copyFrom("call " + i + ":", StandardCharsets.UTF_8)
                        .concat(Payloads.of(i % 7 == 0 ? 40_000 : 200));
                sent.add(payload);
                answers.add(echo.unary(EchoRequest.newBuilder().setPayload(payload).build()));
            }
            List<HoldingEchoService.HeldCall> held = new ArrayList<>();
            for (int i = 0; i < CALLS; i++) {
                held.add(service.nextHeld());
            }
            Collections.reverse(held);
            held.forEach(HoldingEchoService.HeldCall::answer);
            for (int i = 0; i < CALLS; i++) {
                assertEquals(sent.get(i), answers.get(i).get(120, TimeUnit.SECONDS).getPayload(),
                        "answer to call " + i);
            }
        }
    }
}
