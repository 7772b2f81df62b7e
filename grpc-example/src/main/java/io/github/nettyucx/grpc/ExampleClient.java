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
import io.github.nettyucx.grpc.kv.Entry;
import io.github.nettyucx.grpc.kv.GetRequest;
import io.github.nettyucx.grpc.kv.KeyValueGrpc;
import io.github.nettyucx.grpc.kv.PutRequest;
import io.github.nettyucx.grpc.kv.ScanRequest;
import io.github.nettyucx.grpc.kv.WatchEvent;
import io.github.nettyucx.grpc.kv.WatchRequest;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Talks to {@link ExampleServer} once through every kind of call — unary, server-streaming,
 * client-streaming, bidirectional, a watch, an error status — and prints what it got.
 * Exits non-zero when a step does not give the expected answer.
 */
public final class ExampleClient {
    static final String USAGE = "usage: ExampleClient [--transport ucx|epoll|nio|io_uring] "
            + "[--target 127.0.0.1:50051] [--allocator grpc|channel]";

    /** Generous: the example also runs on loaded machines. */
    private static final long CALL_SECONDS = 30;

    private ExampleClient() {
    }

    public static void main(String[] args) throws Exception {
        CommandLine cl;
        NettyTransport transport;
        AllocatorChoice allocator;
        try {
            cl = new CommandLine(args, Set.of("transport", "target", "allocator"), Set.of(), USAGE);
            transport = NettyTransport.of(cl.get("transport", "ucx"));
            allocator = AllocatorChoice.of(cl.get("allocator", "grpc"));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        transport.ensureAvailable();
        String target = cl.get("target", "127.0.0.1:50051");

        EventLoopGroup group = transport.newEventLoopGroup(1, "grpc-client");
        ManagedChannel channel = GrpcWiring.onTransport(NettyChannelBuilder.forTarget(target).usePlaintext(),
                transport, group, allocator).build();
        try {
            walkThrough(channel);
            System.out.println("all steps answered as expected over " + transport.id());
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static void walkThrough(ManagedChannel channel) throws Exception {
        // A deadline counts from the moment it is set on a stub, so each call gets a fresh stub.
        Supplier<KeyValueGrpc.KeyValueBlockingStub> kv = () -> KeyValueGrpc.newBlockingStub(channel).withWaitForReady()
                .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
        KeyValueGrpc.KeyValueStub kvAsync = KeyValueGrpc.newStub(channel);
        Supplier<EchoGrpc.EchoBlockingStub> echo = () -> EchoGrpc.newBlockingStub(channel)
                .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
        EchoGrpc.EchoStub echoAsync = EchoGrpc.newStub(channel);

        // A watch first, so that the puts below show up on it.
        BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
        Context.CancellableContext watchContext = Context.current().withCancellation();
        watchContext.run(() -> kvAsync.watch(WatchRequest.newBuilder().setKeyPrefix("fruit/").build(),
                new QueueingObserver<>(events)));
        expect(events.poll(CALL_SECONDS, TimeUnit.SECONDS), "the watch to start");

        for (String fruit : new String[] {"apple", "banana", "cherry"}) {
            PutRequest put = PutRequest.newBuilder().setKey("fruit/" + fruit).setValue(utf8("ripe " + fruit)).build();
            long version = kv.get().put(put).getVersion();
            System.out.println("put fruit/" + fruit + " -> version " + version);
        }
        Entry apple = kv.get().get(GetRequest.newBuilder().setKey("fruit/apple").build());
        System.out.println("get fruit/apple -> " + apple.getValue().toStringUtf8() + " (version " + apple.getVersion()
                + ")");

        CompletableFuture<Integer> batch = new CompletableFuture<>();
        StreamObserver<PutRequest> batchCall = kvAsync.batchPut(new SingleObserver<>(batch, r -> r.getCount()));
        for (int i = 0; i < 5; i++) {
            batchCall.onNext(PutRequest.newBuilder().setKey("veg/" + i).setValue(utf8("v" + i)).build());
        }
        batchCall.onCompleted();
        int stored = batch.get(CALL_SECONDS, TimeUnit.SECONDS);
        System.out.println("batch put (client streaming) -> " + stored + " entries stored");

        StringBuilder keys = new StringBuilder();
        // "0" follows "/" in ASCII: the range holds exactly the keys that start with "fruit/".
        Iterator<Entry> scan = kv.get().scan(ScanRequest.newBuilder().setStartKey("fruit/").setEndKey("fruit0")
                .build());
        scan.forEachRemaining(e -> keys.append(' ').append(e.getKey()));
        System.out.println("scan fruit/ (server streaming) ->" + keys);

        for (int i = 0; i < 3; i++) {
            WatchEvent e = expect(events.poll(CALL_SECONDS, TimeUnit.SECONDS), "watch event " + (i + 1));
            System.out.println("watch saw " + e.getKind() + " " + e.getEntry().getKey());
        }
        watchContext.cancel(null);

        try {
            kv.get().get(GetRequest.newBuilder().setKey("fruit/durian").build());
            throw new IllegalStateException("get of a missing key answered instead of failing with NOT_FOUND");
        } catch (StatusRuntimeException e) {
            System.out.println("get fruit/durian -> " + e.getStatus().getCode() + ": "
                    + e.getStatus().getDescription());
        }

        EchoResponse unary = echo.get().unary(EchoRequest.newBuilder().setPayload(Payloads.of(1024)).build());
        System.out.println("echo unary 1 KiB -> " + unary.getPayload().size() + " bytes back");

        int[] received = {0};
        echo.get().serverStream(StreamRequest.newBuilder().setMessageBytes(4096).setCount(100).build())
                .forEachRemaining(r -> received[0]++);
        System.out.println("echo server stream -> " + received[0] + " messages of 4 KiB");

        CompletableFuture<StreamSummary> summary = new CompletableFuture<>();
        StreamObserver<EchoRequest> upload = echoAsync.clientStream(new SingleObserver<>(summary, s -> s));
        for (int i = 0; i < 100; i++) {
            upload.onNext(EchoRequest.newBuilder().setPayload(Payloads.of(4096)).build());
        }
        upload.onCompleted();
        StreamSummary s = summary.get(CALL_SECONDS, TimeUnit.SECONDS);
        System.out.println("echo client stream -> server counted " + s.getMessages() + " messages, " + s.getBytes()
                + " bytes");

        BlockingQueue<EchoResponse> answers = new LinkedBlockingQueue<>();
        QueueingObserver<EchoResponse> bidiAnswers = new QueueingObserver<>(answers);
        StreamObserver<EchoRequest> bidi = echoAsync.bidi(bidiAnswers);
        for (int i = 0; i < 10; i++) {
            bidi.onNext(EchoRequest.newBuilder().setPayload(utf8("ping " + i)).build());
            EchoResponse r = expect(answers.poll(CALL_SECONDS, TimeUnit.SECONDS), "bidi answer " + i);
            if (i == 9) {
                System.out.println("echo bidi -> 10 round trips, last answer '" + r.getPayload().toStringUtf8() + "'");
            }
        }
        bidi.onCompleted();
        if (!bidiAnswers.ended.await(CALL_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the bidirectional call did not end after the client half-closed");
        }
    }

    private static ByteString utf8(String s) {
        return ByteString.copyFrom(s, StandardCharsets.UTF_8);
    }

    private static <T> T expect(T value, String what) {
        if (value == null) {
            throw new IllegalStateException("timed out waiting for " + what);
        }
        return value;
    }

    /** Puts every message of a streaming answer on a queue; errors other than cancellation are printed. */
    private static final class QueueingObserver<T> implements StreamObserver<T> {
        private final BlockingQueue<T> queue;
        final CountDownLatch ended = new CountDownLatch(1);

        QueueingObserver(BlockingQueue<T> queue) {
            this.queue = queue;
        }

        @Override
        public void onNext(T value) {
            queue.add(value);
        }

        @Override
        public void onError(Throwable t) {
            if (!(t instanceof StatusRuntimeException
                    && ((StatusRuntimeException) t).getStatus().getCode() == io.grpc.Status.Code.CANCELLED)) {
                System.err.println("stream failed: " + t);
            }
            ended.countDown();
        }

        @Override
        public void onCompleted() {
            ended.countDown();
        }
    }

    /** Completes a future with (a part of) the single answer of a client-streaming call. */
    private static final class SingleObserver<T, R> implements StreamObserver<T> {
        private final CompletableFuture<R> result;
        private final java.util.function.Function<T, R> extract;

        SingleObserver(CompletableFuture<R> result, java.util.function.Function<T, R> extract) {
            this.result = result;
            this.extract = extract;
        }

        @Override
        public void onNext(T value) {
            result.complete(extract.apply(value));
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onCompleted() {
            result.completeExceptionally(new IllegalStateException("the call completed without an answer"));
        }
    }
}
