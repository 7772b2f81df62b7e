/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.kv.BatchPutResponse;
import io.github.nettyucx.grpc.kv.DeleteRequest;
import io.github.nettyucx.grpc.kv.DeleteResponse;
import io.github.nettyucx.grpc.kv.Entry;
import io.github.nettyucx.grpc.kv.GetRequest;
import io.github.nettyucx.grpc.kv.KeyValueGrpc;
import io.github.nettyucx.grpc.kv.PutRequest;
import io.github.nettyucx.grpc.kv.PutResponse;
import io.github.nettyucx.grpc.kv.ScanRequest;
import io.github.nettyucx.grpc.kv.WatchEvent;
import io.github.nettyucx.grpc.kv.WatchRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The key-value service over an in-memory sorted map. Writes take one lock so that each watcher sees
 * the changes of a key in the order they were made; reads take none.
 */
public class KeyValueService extends KeyValueGrpc.KeyValueImplBase {
    private final ConcurrentSkipListMap<String, Entry> entries = new ConcurrentSkipListMap<>();
    private final List<Watcher> watchers = new CopyOnWriteArrayList<>();
    private final Object writeLock = new Object();

    @Override
    public void get(GetRequest request, StreamObserver<Entry> responseObserver) {
        Entry entry = entries.get(request.getKey());
        if (entry == null) {
            responseObserver.onError(Status.NOT_FOUND.withDescription("no entry for key '" + request.getKey() + "'")
                    .asRuntimeException());
            return;
        }
        responseObserver.onNext(entry);
        responseObserver.onCompleted();
    }

    @Override
    public void put(PutRequest request, StreamObserver<PutResponse> responseObserver) {
        if (request.getKey().isEmpty()) {
            responseObserver.onError(Status.INVALID_ARGUMENT.withDescription("the key must not be empty")
                    .asRuntimeException());
            return;
        }
        Entry stored = store(request);
        responseObserver.onNext(PutResponse.newBuilder().setVersion(stored.getVersion())
                .setCreated(stored.getVersion() == 1).build());
        responseObserver.onCompleted();
    }

    @Override
    public void delete(DeleteRequest request, StreamObserver<DeleteResponse> responseObserver) {
        boolean deleted;
        synchronized (writeLock) {
            deleted = entries.remove(request.getKey()) != null;
            if (deleted) {
                notifyWatchers(WatchEvent.newBuilder().setKind(WatchEvent.Kind.DELETE)
                        .setEntry(Entry.newBuilder().setKey(request.getKey())).build());
            }
        }
        responseObserver.onNext(DeleteResponse.newBuilder().setDeleted(deleted).build());
        responseObserver.onCompleted();
    }

    @Override
    public void scan(ScanRequest request, StreamObserver<Entry> responseObserver) {
        if (request.getLimit() < 0) {
            responseObserver.onError(Status.INVALID_ARGUMENT.withDescription("limit must not be negative")
                    .asRuntimeException());
            return;
        }
        NavigableMap<String, Entry> range = request.getEndKey().isEmpty()
                ? entries.tailMap(request.getStartKey(), true)
                : entries.subMap(request.getStartKey(), true, request.getEndKey(), false);
        ServerCallStreamObserver<Entry> call = (ServerCallStreamObserver<Entry>) responseObserver;
        int sent = 0;
        for (Map.Entry<String, Entry> e : range.entrySet()) {
            if ((request.getLimit() > 0 && sent == request.getLimit()) || call.isCancelled()) {
                break;
            }
            responseObserver.onNext(e.getValue());
            sent++;
        }
        if (!call.isCancelled()) {
            responseObserver.onCompleted();
        }
    }

    @Override
    public StreamObserver<PutRequest> batchPut(StreamObserver<BatchPutResponse> responseObserver) {
        return new StreamObserver<>() {
            private int count;
            private boolean failed;

            @Override
            public void onNext(PutRequest request) {
                if (failed) {
                    return;
                }
                if (request.getKey().isEmpty()) {
                    failed = true;
                    responseObserver.onError(Status.INVALID_ARGUMENT
                            .withDescription("entry " + count + " of the batch has an empty key").asRuntimeException());
                    return;
                }
                store(request);
                count++;
            }

            @Override
            public void onError(Throwable t) {
                // The client cancelled: what was stored stays stored, as with single puts.
            }

            @Override
            public void onCompleted() {
                if (!failed) {
                    responseObserver.onNext(BatchPutResponse.newBuilder().setCount(count).build());
                    responseObserver.onCompleted();
                }
            }
        };
    }

    @Override
    public void watch(WatchRequest request, StreamObserver<WatchEvent> responseObserver) {
        Watcher watcher = new Watcher(request.getKeyPrefix(), (ServerCallStreamObserver<WatchEvent>) responseObserver);
        watcher.call.setOnCancelHandler(() -> watchers.remove(watcher));
        synchronized (writeLock) {
            watchers.add(watcher);
            // Sent under the write lock: every change after this event reaches the watcher.
            watcher.send(WatchEvent.newBuilder().setKind(WatchEvent.Kind.WATCHING).build());
        }
    }

    /** Number of open watches; for tests and monitoring. */
    public int watcherCount() {
        return watchers.size();
    }

    private Entry store(PutRequest request) {
        synchronized (writeLock) {
            Entry previous = entries.get(request.getKey());
            Entry stored = Entry.newBuilder().setKey(request.getKey()).setValue(request.getValue())
                    .setVersion(previous == null ? 1 : previous.getVersion() + 1).build();
            entries.put(request.getKey(), stored);
            notifyWatchers(WatchEvent.newBuilder().setKind(WatchEvent.Kind.PUT).setEntry(stored).build());
            return stored;
        }
    }

    private void notifyWatchers(WatchEvent event) {
        for (Watcher w : watchers) {
            if (event.getEntry().getKey().startsWith(w.prefix)) {
                w.send(event);
            }
        }
    }

    private static final class Watcher {
        final String prefix;
        final ServerCallStreamObserver<WatchEvent> call;

        Watcher(String prefix, ServerCallStreamObserver<WatchEvent> call) {
            this.prefix = prefix;
            this.call = call;
        }

        /** Called under the service's write lock, so sends to one watcher never overlap. */
        void send(WatchEvent event) {
            if (!call.isCancelled()) {
                call.onNext(event);
            }
        }
    }
}
