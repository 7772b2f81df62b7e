/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.grpc.ClientInterceptor;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.stub.MetadataUtils;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What the server saw of the calls that carry a call id ({@link #tag()}): that it started them and that they
 * ended cancelled. Ids keep calls apart when many run at once on one server.
 */
final class CallTracker implements ServerInterceptor {
    private static final Metadata.Key<String> CALL_ID =
            Metadata.Key.of("x-test-call-id", Metadata.ASCII_STRING_MARSHALLER);

    private final Set<String> started = ConcurrentHashMap.newKeySet();
    private final ConcurrentMap<String, CompletableFuture<Void>> cancelled = new ConcurrentHashMap<>();

    /** A new call id, and the client interceptor that sends it. */
    static Tag tag() {
        String id = UUID.randomUUID().toString();
        Metadata headers = new Metadata();
        headers.put(CALL_ID, id);
        return new Tag(id, MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    boolean started(String id) {
        return started.contains(id);
    }

    /** Completes when the server has seen the call with this id cancelled. */
    CompletableFuture<Void> cancelled(String id) {
        return cancelled.computeIfAbsent(id, k -> new CompletableFuture<>());
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                     ServerCallHandler<Q, R> next) {
        String id = headers.get(CALL_ID);
        if (id == null) {
            return next.startCall(call, headers);
        }
        started.add(id);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
            @Override
            public void onCancel() {
                cancelled(id).complete(null);
                super.onCancel();
            }
        };
    }

    /** A call id and the interceptor that attaches it to a stub's calls. */
    static final class Tag {
        final String id;
        final ClientInterceptor interceptor;

        Tag(String id, ClientInterceptor interceptor) {
            this.id = id;
            this.interceptor = interceptor;
        }
    }
}
