/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.InternalChannelz;
import io.grpc.InternalInstrumented;
import io.grpc.InternalWithLogId;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP/2 keepalive pings flow over the transport: a server that pings an idle connection after 10 s (gRPC's
 * shortest keepalive time) and drops it when a ping is not acknowledged within 1 s keeps a connection with a
 * call in flight open past that, and channelz counts the pings it sent. About 11 s per transport, most of it
 * waiting for the first ping: the three transports run at once (each its own server, client and channelz entry),
 * about 14 s in all instead of 35.
 */
@ExtendWith(LeakCheck.class)
class KeepaliveTest {
    /** The shortest keepalive time gRPC allows (KeepAliveManager clamps shorter ones to it). */
    private static final long KEEPALIVE_SECONDS = 10;

    @OverTransports
    @Execution(ExecutionMode.CONCURRENT)
    void pingsAreSentAndAcknowledgedWhileACallWaits(NettyTransport transport) throws Exception {
        HoldingEchoService service = new HoldingEchoService();
        try (GrpcHarness h = GrpcHarness.on(transport).service(service)
                .server(b -> b.keepAliveTime(KEEPALIVE_SECONDS, TimeUnit.SECONDS).keepAliveTimeout(1, TimeUnit.SECONDS))
                .start()) {
            Answers<EchoResponse> answer = new Answers<>();
            EchoGrpc.newStub(h.channel()).withDeadlineAfter(60, TimeUnit.SECONDS)
                    .unary(EchoRequest.newBuilder().setPayload(Payloads.of(32)).build(), answer);
            HoldingEchoService.HeldCall held = service.nextHeld();

            long sentBefore = keepAlivesSent(h);
            // Past the first ping and its acknowledgement timeout.
            Thread.sleep(TimeUnit.SECONDS.toMillis(KEEPALIVE_SECONDS) + 1500);
            assertFalse(answer.ended(),
                    "the call ended while it was held: " + (answer.failed() ? "failed" : "answered"));
            long sent = keepAlivesSent(h) - sentBefore;
            assertTrue(sent >= 1, "the server sent no keepalive ping on a connection idle for "
                    + KEEPALIVE_SECONDS + " s");

            held.answer();
            assertEquals(Payloads.of(32), answer.awaitCompletion(30).get(0).getPayload());
        }
    }

    /** Keepalive pings the server sent on its connections, as channelz reports them. */
    private static long keepAlivesSent(GrpcHarness h) throws Exception {
        InternalChannelz channelz = InternalChannelz.instance();
        long serverId = ((InternalInstrumented<?>) h.server()).getLogId().getId();
        long total = 0;
        for (InternalWithLogId socket : channelz.getServerSockets(serverId, 0, 100).sockets) {
            InternalChannelz.SocketStats stats = ((InternalInstrumented<InternalChannelz.SocketStats>) socket)
                    .getStats().get(10, TimeUnit.SECONDS);
            total += stats.data.keepAlivesSent;
        }
        return total;
    }
}
