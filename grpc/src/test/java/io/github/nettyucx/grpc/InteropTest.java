/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import com.google.protobuf.ByteString;
import io.github.nettyucx.grpc.interop.Empty;
import io.github.nettyucx.grpc.interop.InteropServiceGrpc;
import io.github.nettyucx.grpc.interop.StatusToEcho;
import io.github.nettyucx.grpc.interop.StreamingInputRequest;
import io.github.nettyucx.grpc.interop.StreamingInputResponse;
import io.github.nettyucx.grpc.interop.StreamingOutputRequest;
import io.github.nettyucx.grpc.interop.StreamingOutputResponse;
import io.github.nettyucx.grpc.interop.UnaryRequest;
import io.github.nettyucx.grpc.interop.UnaryResponse;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * gRPC's interoperability cases, in the project's own words, against one server and one channel that the
 * applications' own calls build ({@code Grpc.newServerBuilderForPort}, {@code Grpc.newChannelBuilder}): the
 * providers put both on UCX, which {@link #closeAndCheck()} confirms from the channels Netty made. The cases
 * also run together, several calls of each kind in flight at once.
 */
class InteropTest {
    /** gRPC's default limit of a received message. */
    private static final int MAX_MESSAGE = 4 * 1024 * 1024;
    /** Room for the message's own framing around a payload, so that the message stays under the limit. */
    private static final int FRAMING = 64;
    private static final long CALL_SECONDS = 30;
    private static final int[] SIZES = {31_415, 9, 2_653, 58_979};

    private static final CallTracker calls = new CallTracker();
    private static Server server;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() throws Exception {
        UcxChecks.requireUcx();
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerInterceptors.intercept(new InteropServiceImpl().withMetadataEcho(), calls))
                .build().start();
        channel = Grpc.newChannelBuilder("127.0.0.1:" + server.getPort(), InsecureChannelCredentials.create())
                .build();
    }

    @AfterAll
    static void closeAndCheck() throws Exception {
        try {
            if (server != null) {
                UcxChecks.assertOnUcx(server.getPort());
            }
        } finally {
            if (channel != null) {
                channel.shutdownNow().awaitTermination(CALL_SECONDS, TimeUnit.SECONDS);
            }
            if (server != null) {
                server.shutdownNow().awaitTermination(CALL_SECONDS, TimeUnit.SECONDS);
            }
        }
    }

    private static InteropServiceGrpc.InteropServiceBlockingStub blocking() {
        return InteropServiceGrpc.newBlockingStub(channel).withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
    }

    private static InteropServiceGrpc.InteropServiceStub async() {
        return InteropServiceGrpc.newStub(channel).withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void emptyUnary() {
        assertEquals(Empty.getDefaultInstance(), blocking().emptyCall(Empty.getDefaultInstance()));
    }

    @Test
    void largeUnary() {
        unary(256 * 1024, 256 * 1024 + 1);
    }

    /** Both ways, a message just under the limit that gRPC applies by default. */
    @Test
    void messagesNearTheDefaultLimit() {
        unary(MAX_MESSAGE - FRAMING, MAX_MESSAGE - FRAMING);
    }

    /** A response over the client's limit fails the call, and the channel goes on. */
    @Test
    void aResponseOverTheLimitIsRefused() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> blocking().unaryCall(UnaryRequest.newBuilder().setResponseSize(MAX_MESSAGE).build()));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), e.toString());
        emptyUnary();
    }

    private static void unary(int requestSize, int responseSize) {
        UnaryResponse response = blocking().unaryCall(UnaryRequest.newBuilder().setResponseSize(responseSize)
                .setPayload(InteropServiceImpl.payload(requestSize)).build());
        assertBody(responseSize, response.getPayload().getBody());
    }

    @Test
    void clientStreaming() throws Exception {
        Responses<StreamingInputResponse> responses = new Responses<>();
        StreamObserver<StreamingInputRequest> requests = async().streamingInputCall(responses);
        long total = 0;
        for (int size : SIZES) {
            requests.onNext(StreamingInputRequest.newBuilder().setPayload(InteropServiceImpl.payload(size)).build());
            total += size;
        }
        requests.onCompleted();
        List<StreamingInputResponse> received = responses.awaitCompletion();
        assertEquals(1, received.size());
        assertEquals(total, received.get(0).getAggregatedPayloadSize());
    }

    @Test
    void serverStreaming() {
        Iterator<StreamingOutputResponse> responses = blocking().streamingOutputCall(request(SIZES).build());
        for (int size : SIZES) {
            assertTrue(responses.hasNext(), "fewer responses than asked for");
            assertBody(size, responses.next().getPayload().getBody());
        }
        assertFalse(responses.hasNext(), "more responses than asked for");
    }

    /** Each request waits for its response before the next is sent. */
    @Test
    void pingPong() throws Exception {
        Responses<StreamingOutputResponse> responses = new Responses<>();
        StreamObserver<StreamingOutputRequest> requests = async().fullDuplexCall(responses);
        for (int size : SIZES) {
            requests.onNext(request(size).setPayload(InteropServiceImpl.payload(size / 2)).build());
            assertBody(size, responses.next().getPayload().getBody());
        }
        requests.onCompleted();
        assertTrue(responses.awaitCompletion().isEmpty(), "responses after the last request's");
    }

    /** The server answers only once the client has sent all its requests. */
    @Test
    void halfDuplex() throws Exception {
        Responses<StreamingOutputResponse> responses = new Responses<>();
        StreamObserver<StreamingOutputRequest> requests = async().halfDuplexCall(responses);
        for (int size : SIZES) {
            requests.onNext(request(size).build());
        }
        requests.onCompleted();
        List<StreamingOutputResponse> received = responses.awaitCompletion();
        assertEquals(SIZES.length, received.size());
        for (int i = 0; i < SIZES.length; i++) {
            assertBody(SIZES[i], received.get(i).getPayload().getBody());
        }
    }

    @Test
    void emptyStream() throws Exception {
        Responses<StreamingOutputResponse> responses = new Responses<>();
        async().fullDuplexCall(responses).onCompleted();
        assertTrue(responses.awaitCompletion().isEmpty());
    }

    @Test
    void cancelAfterBegin() throws Exception {
        Responses<StreamingInputResponse> responses = new Responses<>();
        StreamObserver<StreamingInputRequest> requests = async().streamingInputCall(responses);
        ((ClientCallStreamObserver<StreamingInputRequest>) requests).cancel("cancelled by the test", null);
        assertEquals(Status.Code.CANCELLED, responses.awaitError().getCode());
    }

    /** The server, which answered once, sees the call cancelled. */
    @Test
    void cancelAfterFirstResponse() throws Exception {
        CallTracker.Tag tag = CallTracker.tag();
        Responses<StreamingOutputResponse> responses = new Responses<>();
        StreamObserver<StreamingOutputRequest> requests = async().withInterceptors(tag.interceptor)
                .fullDuplexCall(responses);
        requests.onNext(request(SIZES[0]).build());
        assertBody(SIZES[0], responses.next().getPayload().getBody());
        ((ClientCallStreamObserver<StreamingOutputRequest>) requests).cancel("cancelled by the test", null);
        assertEquals(Status.Code.CANCELLED, responses.awaitError().getCode());
        calls.cancelled(tag.id).get(CALL_SECONDS, TimeUnit.SECONDS);
    }

    /** A call the server leaves unanswered ends at its deadline; a server that had started it sees it end. */
    @Test
    void deadlineExceeded() throws Exception {
        CallTracker.Tag tag = CallTracker.tag();
        Responses<StreamingOutputResponse> responses = new Responses<>();
        StreamObserver<StreamingOutputRequest> requests = InteropServiceGrpc.newStub(channel)
                .withInterceptors(tag.interceptor).withDeadlineAfter(300, TimeUnit.MILLISECONDS)
                .fullDuplexCall(responses);
        requests.onNext(request().setPayload(InteropServiceImpl.payload(27_182)).build());
        assertEquals(Status.Code.DEADLINE_EXCEEDED, responses.awaitError().getCode());
        if (calls.started(tag.id)) {
            calls.cancelled(tag.id).get(CALL_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void statusCodeAndMessage() throws Exception {
        String message = "\t\ntest with whitespace\r\nand Unicode BMP \u263A and non-BMP \uD83D\uDE08\t\n";
        StatusToEcho echo = StatusToEcho.newBuilder().setCode(Status.Code.UNKNOWN.value()).setMessage(message)
                .build();

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> blocking().unaryCall(UnaryRequest.newBuilder().setResponseStatus(echo).build()));
        assertEquals(Status.Code.UNKNOWN, e.getStatus().getCode());
        assertEquals(message, e.getStatus().getDescription());

        Responses<StreamingOutputResponse> responses = new Responses<>();
        StreamObserver<StreamingOutputRequest> requests = async().fullDuplexCall(responses);
        requests.onNext(request().setResponseStatus(echo).build());
        requests.onCompleted();
        Status status = responses.awaitError();
        assertEquals(Status.Code.UNKNOWN, status.getCode());
        assertEquals(message, status.getDescription());
    }

    @Test
    void unimplementedMethod() {
        MethodDescriptor<Empty, Empty> missing = InteropServiceGrpc.getEmptyCallMethod().toBuilder()
                .setFullMethodName(MethodDescriptor.generateFullMethodName(InteropServiceGrpc.SERVICE_NAME,
                        "NoSuchCall"))
                .build();
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
                channel, missing, CallOptions.DEFAULT.withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS),
                Empty.getDefaultInstance()));
        assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
    }

    /** Headers and binary trailers that the server echoes, on a unary and on a streaming call. */
    @Test
    void customMetadata() throws Exception {
        String initial = "test_initial_metadata_value";
        byte[] trailing = {(byte) 0xab, (byte) 0xab, (byte) 0xab};
        Metadata sent = new Metadata();
        sent.put(InteropServiceImpl.ECHO_INITIAL, initial);
        sent.put(InteropServiceImpl.ECHO_TRAILING, trailing);

        AtomicReference<Metadata> headers = new AtomicReference<>();
        AtomicReference<Metadata> trailers = new AtomicReference<>();
        blocking().withInterceptors(MetadataUtils.newAttachHeadersInterceptor(sent),
                MetadataUtils.newCaptureMetadataInterceptor(headers, trailers))
                .unaryCall(UnaryRequest.newBuilder().setResponseSize(314_159).build());
        assertEquals(initial, headers.get().get(InteropServiceImpl.ECHO_INITIAL));
        assertArrayEquals(trailing, trailers.get().get(InteropServiceImpl.ECHO_TRAILING));

        headers.set(null);
        trailers.set(null);
        Responses<StreamingOutputResponse> responses = new Responses<>();
        StreamObserver<StreamingOutputRequest> requests = async()
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(sent),
                        MetadataUtils.newCaptureMetadataInterceptor(headers, trailers))
                .fullDuplexCall(responses);
        requests.onNext(request(SIZES[0]).build());
        requests.onCompleted();
        assertEquals(1, responses.awaitCompletion().size());
        assertEquals(initial, headers.get().get(InteropServiceImpl.ECHO_INITIAL));
        assertArrayEquals(trailing, trailers.get().get(InteropServiceImpl.ECHO_TRAILING));
    }

    /** The cases above, each several times, all in flight together on the one channel. */
    @Test
    void casesConcurrently() throws Exception {
        List<Case> cases = List.of(this::emptyUnary, this::largeUnary, this::clientStreaming,
                this::serverStreaming, this::pingPong, this::halfDuplex, this::emptyStream, this::cancelAfterBegin,
                this::cancelAfterFirstResponse, this::statusCodeAndMessage, this::customMetadata,
                this::messagesNearTheDefaultLimit);
        int rounds = 3;
        ExecutorService pool = Executors.newFixedThreadPool(cases.size());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                for (Case c : cases) {
                    running.add(pool.submit(() -> {
                        c.run();
                        return null;
                    }));
                }
            }
            for (Future<?> f : running) {
                f.get(CALL_SECONDS * 2, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static StreamingOutputRequest.Builder request(int... responseSizes) {
        StreamingOutputRequest.Builder request = StreamingOutputRequest.newBuilder();
        for (int size : responseSizes) {
            request.addResponseSizes(size);
        }
        return request;
    }

    private static void assertBody(int size, ByteString body) {
        assertEquals(size, body.size(), "payload size");
        assertEquals(InteropServiceImpl.body(size), body, "payload bytes");
    }

    /** One of the cases above. */
    private interface Case {
        void run() throws Exception;
    }

    /** A response observer that the test reads from: each response, then the end of the call. */
    private static final class Responses<T> implements StreamObserver<T> {
        private final BlockingQueue<T> responses = new LinkedBlockingQueue<>();
        private final CompletableFuture<Status> end = new CompletableFuture<>();

        @Override
        public void onNext(T value) {
            responses.add(value);
        }

        @Override
        public void onError(Throwable t) {
            end.complete(Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
            end.complete(Status.OK);
        }

        T next() throws InterruptedException {
            T value = responses.poll(CALL_SECONDS, TimeUnit.SECONDS);
            assertNotNull(value, "no response");
            return value;
        }

        /** The responses not yet taken, once the call has ended with OK. */
        List<T> awaitCompletion() throws Exception {
            Status status = end.get(CALL_SECONDS, TimeUnit.SECONDS);
            assertTrue(status.isOk(), status.toString());
            List<T> rest = new ArrayList<>();
            responses.drainTo(rest);
            return rest;
        }

        Status awaitError() throws Exception {
            Status status = end.get(CALL_SECONDS, TimeUnit.SECONDS);
            assertFalse(status.isOk(), "the call ended with OK");
            return status;
        }
    }
}
