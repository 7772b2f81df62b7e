/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import io.github.nettyucx.kvstore.RawConnection.Response;
import io.github.nettyucx.kvstore.client.KeyRecord;
import io.github.nettyucx.kvstore.client.KvClient;
import io.github.nettyucx.kvstore.client.KvClientConfig;
import io.github.nettyucx.kvstore.client.KvServerException;
import io.github.nettyucx.kvstore.protocol.OpCode;
import io.github.nettyucx.kvstore.protocol.Request;
import io.github.nettyucx.kvstore.protocol.Status;
import io.github.nettyucx.kvstore.server.KvServer;
import io.github.nettyucx.kvstore.server.KvServerConfig;
import io.github.nettyucx.support.NettyTransport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the server does with bad input, over UCX: each case gets an error response (when the request
 * id is known) or a clean close, and the server goes on serving everyone else without leaking.
 */
class BadInputTest {
    private static final int MAX_FRAME = 1024;
    private static final long MAX_MEMORY = 8192;
    private static final NettyTransport TRANSPORT = NettyTransport.UCX;

    private static LeakWatch leaks;
    private static EventLoopGroup group;
    private static KvServer server;

    @BeforeAll
    static void start() throws Exception {
        TestTransports.assumeAvailable(TRANSPORT);
        leaks = LeakWatch.install();
        group = TRANSPORT.newEventLoopGroup(1);
        server = KvServer.start(new KvServerConfig().port(0).transport(TRANSPORT).ioThreads(2)
                .maxFrameLength(MAX_FRAME).maxMemoryBytes(MAX_MEMORY));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @AfterEach
    void serverStillServesAndNothingLeaked() throws Exception {
        try (RawConnection other = new RawConnection(group, TRANSPORT, server.address())) {
            other.send(frame(1000, OpCode.STATS));
            Response r = other.next();
            assertEquals(1000, r.id());
            assertEquals(Status.OK, r.status());
        }
        leaks.assertNoLeaks();
    }

    private static ByteBuf frame(long id, OpCode op) {
        ByteBuf b = Unpooled.buffer();
        Request.encode(b, id, op, op == OpCode.STATS ? null : "key", null, Map.of(), 1);
        return b;
    }

    @Test
    void frameShorterThanItsHeaderClosesTheConnection() throws Exception {
        try (RawConnection c = new RawConnection(group, TRANSPORT, server.address())) {
            c.send(Unpooled.buffer().writeInt(2).writeShort(0x0101).writeZero(32));
            c.awaitClosedByServer();
        }
    }

    @Test
    void malformedPayloadGetsBadRequestAndTheConnectionStaysUsable() throws Exception {
        try (RawConnection c = new RawConnection(group, TRANSPORT, server.address())) {
            // GET whose key claims 200 bytes in a 3-byte payload.
            ByteBuf b = Unpooled.buffer().writeInt(9 + 3).writeLong(11).writeByte(OpCode.GET.code())
                    .writeShort(200).writeByte('k');
            c.send(b);
            Response r = c.next();
            assertEquals(11, r.id());
            assertEquals(Status.BAD_REQUEST, r.status());
            assertTrue(r.message().contains("payload ends inside"), r.message());
            c.send(frame(12, OpCode.STATS));
            assertEquals(new Response(12, Status.OK, null), c.next());
        }
    }

    @Test
    void oversizedFrameGetsAnErrorAndIsSkipped() throws Exception {
        try (RawConnection c = new RawConnection(group, TRANSPORT, server.address())) {
            ByteBuf big = Unpooled.buffer().writeInt(9 + 5000).writeLong(21).writeByte(OpCode.PUT.code())
                    .writeZero(5000);
            big.writeBytes(frame(22, OpCode.STATS));
            c.send(big);
            Response r = c.next();
            assertEquals(21, r.id());
            assertEquals(Status.FRAME_TOO_LARGE, r.status());
            assertTrue(r.message().contains("exceeds the maximum of " + MAX_FRAME), r.message());
            assertEquals(new Response(22, Status.OK, null), c.next());
        }
    }

    @Test
    void unknownOperationGetsUnknownOp() throws Exception {
        try (RawConnection c = new RawConnection(group, TRANSPORT, server.address())) {
            c.send(Unpooled.buffer().writeInt(9).writeLong(31).writeByte(77));
            Response r = c.next();
            assertEquals(31, r.id());
            assertEquals(Status.UNKNOWN_OP, r.status());
            assertTrue(r.message().contains("unknown operation code 77"), r.message());
        }
    }

    @Test
    void clientLeavingWithRequestsInFlight() throws Exception {
        long before = server.openConnections();
        RawConnection c = new RawConnection(group, TRANSPORT, server.address());
        ByteBuf burst = Unpooled.buffer();
        for (int i = 0; i < 2000; i++) {
            Request.encode(burst, i, i % 2 == 0 ? OpCode.GET : OpCode.SCAN, "k" + i, null, null, 10);
        }
        c.channel().writeAndFlush(burst);
        c.close();
        // Liveness bound: the server notices and drops the connection.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (server.openConnections() > before && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(before, server.openConnections(), "server still holds the abandoned connection");
    }

    @Test
    void scanWithAHugeCountStopsAtTheFrameLimit() throws Exception {
        try (KvClient client = new KvClient(new KvClientConfig().server(server.address()).transport(TRANSPORT)
                .group(group).connectionsPerServer(1))) {
            for (int i = 0; i < 6; i++) {
                client.put("scan" + i, Map.of("f", new byte[300])).get(10, TimeUnit.SECONDS);
            }
            List<KeyRecord> rows = client.scan("scan", Integer.MAX_VALUE, null).get(10, TimeUnit.SECONDS);
            // Each row takes about 320 bytes: three fit in the 1024-byte frame, not six.
            assertEquals(3, rows.size());
            assertEquals("scan0", rows.get(0).key());
            for (int i = 0; i < 6; i++) {
                client.delete("scan" + i).get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void writesBeyondTheMemoryLimitAreRefusedWithTheFix() throws Exception {
        try (KvClient client = new KvClient(new KvClientConfig().server(server.address()).transport(TRANSPORT)
                .group(group).connectionsPerServer(1))) {
            int stored = 0;
            KvServerException refused = null;
            for (int i = 0; i < 100 && refused == null; i++) {
                try {
                    client.put("big" + i, Map.of("f", new byte[500])).get(10, TimeUnit.SECONDS);
                    stored++;
                } catch (ExecutionException e) {
                    refused = assertInstanceOf(KvServerException.class, e.getCause());
                }
            }
            assertTrue(refused != null, "no write was refused");
            assertEquals(Status.MEMORY_LIMIT, refused.status());
            assertTrue(refused.getMessage().contains("memory limit of " + MAX_MEMORY + " bytes reached"),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("raise --max-memory"), refused.getMessage());
            assertTrue(server.store().usedBytes() <= MAX_MEMORY);
            // Deleting makes room again.
            assertTrue(client.delete("big0").get(10, TimeUnit.SECONDS));
            client.put("again", Map.of("f", new byte[400])).get(10, TimeUnit.SECONDS);
            for (int i = 1; i < stored; i++) {
                client.delete("big" + i).get(10, TimeUnit.SECONDS);
            }
            client.delete("again").get(10, TimeUnit.SECONDS);
            assertEquals(0, server.store().usedBytes());
            ExecutionException tooBig = assertThrows(ExecutionException.class,
                    () -> client.put("huge", Map.of("f", new byte[MAX_FRAME])).get(10, TimeUnit.SECONDS));
            assertEquals(Status.FRAME_TOO_LARGE, assertInstanceOf(KvServerException.class, tooBig.getCause()).status());
        }
    }
}
