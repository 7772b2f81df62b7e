/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import com.google.protobuf.ByteString;
import io.github.nettyucx.grpc.kv.BatchPutResponse;
import io.github.nettyucx.grpc.kv.DeleteRequest;
import io.github.nettyucx.grpc.kv.Entry;
import io.github.nettyucx.grpc.kv.GetRequest;
import io.github.nettyucx.grpc.kv.KeyValueGrpc;
import io.github.nettyucx.grpc.kv.PutRequest;
import io.github.nettyucx.grpc.kv.ScanRequest;
import io.github.nettyucx.grpc.kv.WatchEvent;
import io.github.nettyucx.grpc.kv.WatchRequest;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The key-value service's six calls, end to end. */
@ExtendWith(LeakCheck.class)
class KeyValueServiceTest {

    @OverTransports
    void getPutDeleteAndErrors(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport).service(new KeyValueService()).start()) {
            KeyValueGrpc.KeyValueBlockingStub kv = KeyValueGrpc.newBlockingStub(h.channel())
                    .withDeadlineAfter(30, TimeUnit.SECONDS);
            assertTrue(kv.put(put("a", "1")).getCreated());
            assertEquals(2, kv.put(put("a", "2")).getVersion());
            Entry a = kv.get(GetRequest.newBuilder().setKey("a").build());
            assertEquals("2", a.getValue().toStringUtf8());
            assertEquals(2, a.getVersion());
            assertTrue(kv.delete(DeleteRequest.newBuilder().setKey("a").build()).getDeleted());
            assertFalse(kv.delete(DeleteRequest.newBuilder().setKey("a").build()).getDeleted());

            StatusRuntimeException missing = assertThrows(StatusRuntimeException.class,
                    () -> kv.get(GetRequest.newBuilder().setKey("a").build()));
            assertEquals(Status.Code.NOT_FOUND, missing.getStatus().getCode());
            assertEquals("no entry for key 'a'", missing.getStatus().getDescription());
            StatusRuntimeException empty = assertThrows(StatusRuntimeException.class, () -> kv.put(put("", "x")));
            assertEquals(Status.Code.INVALID_ARGUMENT, empty.getStatus().getCode());
        }
    }

    @OverTransports
    void batchPutThenScanInKeyOrder(NettyTransport transport) throws Exception {
        try (GrpcHarness h = GrpcHarness.on(transport).service(new KeyValueService()).start()) {
            Answers<BatchPutResponse> answer = new Answers<>();
            StreamObserver<PutRequest> batch = KeyValueGrpc.newStub(h.channel()).withDeadlineAfter(30, TimeUnit.SECONDS)
                    .batchPut(answer);
            for (int i = 499; i >= 0; i--) {
                batch.onNext(put(String.format("k%04d", i), "value " + i));
            }
            batch.onCompleted();
            assertEquals(500, answer.awaitCompletion(30).get(0).getCount());

            KeyValueGrpc.KeyValueBlockingStub kv = KeyValueGrpc.newBlockingStub(h.channel())
                    .withDeadlineAfter(30, TimeUnit.SECONDS);
            List<String> keys = new ArrayList<>();
            kv.scan(ScanRequest.newBuilder().setStartKey("k0100").setEndKey("k0200").build())
                    .forEachRemaining(e -> keys.add(e.getKey()));
            assertEquals(100, keys.size());
            for (int i = 0; i < 100; i++) {
                assertEquals(String.format("k%04d", 100 + i), keys.get(i));
            }
            List<Entry> limited = new ArrayList<>();
            kv.scan(ScanRequest.newBuilder().setStartKey("k0490").setLimit(5).build()).forEachRemaining(limited::add);
            assertEquals(5, limited.size());
            assertEquals("value 494", limited.get(4).getValue().toStringUtf8());
        }
    }

    @OverTransports
    void watchSeesLaterChangesUnderItsPrefixOnly(NettyTransport transport) throws Exception {
        KeyValueService service = new KeyValueService();
        try (GrpcHarness h = GrpcHarness.on(transport).service(service).start()) {
            KeyValueGrpc.KeyValueBlockingStub kv = KeyValueGrpc.newBlockingStub(h.channel())
                    .withDeadlineAfter(30, TimeUnit.SECONDS);
            kv.put(put("w/before", "not seen"));

            Answers<WatchEvent> events = new Answers<>();
            Context.CancellableContext watch = Context.current().withCancellation();
            watch.run(() -> KeyValueGrpc.newStub(h.channel())
                    .watch(WatchRequest.newBuilder().setKeyPrefix("w/").build(), events));
            events.awaitCount(1, 30);
            assertEquals(WatchEvent.Kind.WATCHING, events.snapshot().get(0).getKind());

            kv.put(put("w/x", "1"));
            kv.put(put("other", "not seen"));
            kv.put(put("w/x", "2"));
            kv.delete(DeleteRequest.newBuilder().setKey("w/x").build());
            events.awaitCount(4, 30);
            List<WatchEvent> seen = events.snapshot();
            assertEquals(WatchEvent.Kind.PUT, seen.get(1).getKind());
            assertEquals(1, seen.get(1).getEntry().getVersion());
            assertEquals("2", seen.get(2).getEntry().getValue().toStringUtf8());
            assertEquals(WatchEvent.Kind.DELETE, seen.get(3).getKind());
            assertEquals("w/x", seen.get(3).getEntry().getKey());

            watch.cancel(null);
            assertEquals(Status.Code.CANCELLED, events.awaitFailure(30).getCode());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (service.watcherCount() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(0, service.watcherCount(), "the server still holds the cancelled watch");
            assertEquals(4, events.count(), "events after the watch was cancelled");
        }
    }

    private static PutRequest put(String key, String value) {
        return PutRequest.newBuilder().setKey(key).setValue(ByteString.copyFrom(value, StandardCharsets.UTF_8)).build();
    }
}
