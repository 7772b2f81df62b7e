/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import com.google.protobuf.ByteString;
import io.github.nettyucx.grpc.EchoService;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * gRPC bidirectional streaming over UCX: {@code streams} concurrent calls to the echo service of the
 * grpc-example module, each keeping {@value #IN_FLIGHT} messages of pseudo-random bytes (1 B to 64 KiB) in
 * flight and comparing every answer with what it sent. A call ends after {@value #MESSAGES_PER_CALL} messages
 * (half-close, the server completes) and the next one starts, so call set-up and tear-down are part of the
 * load too. One operation per checked answer.
 */
final class GrpcStreamSoakWorkload extends CountingSoakWorkload {
    private static final int IN_FLIGHT = 4;
    private static final int MESSAGES_PER_CALL = 1_000;
    private static final int MAX_PAYLOAD = 64 * 1024;
    private final int streams;
    private final EventLoopGroup serverGroup = TestTransport.UCX.newGroup(1);
    private final EventLoopGroup clientGroup = TestTransport.UCX.newGroup(1);
    private final AtomicLong calls = new AtomicLong();
    private Server server;
    private ManagedChannel channel;

    GrpcStreamSoakWorkload(int streams) {
        this.streams = streams;
    }

    @Override
    public String name() {
        return "grpc-bidi x" + streams;
    }

    @Override
    public void start() throws Exception {
        // Direct executors: the service and the streams below never block, and answers then stay on the loops.
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .channelType(UcxServerSocketChannel.class)
                .bossEventLoopGroup(serverGroup).workerEventLoopGroup(serverGroup)
                .directExecutor()
                .addService(new EchoService())
                .build().start();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                .channelType(UcxSocketChannel.class).eventLoopGroup(clientGroup)
                .directExecutor().usePlaintext()
                .build();
        EchoGrpc.EchoStub stub = EchoGrpc.newStub(channel);
        for (int i = 0; i < streams; i++) {
            new Stream(stub, i).startCall();
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        System.out.println("grpc soak: " + calls.get() + " calls, " + operations() + " checked answers");
        if (channel != null) {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        if (server != null) {
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        clientGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        serverGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
    }

    /**
     * One stream's succession of calls. gRPC delivers a call's callbacks one at a time (on the client's event
     * loop here), so the fields need no locking.
     */
    private final class Stream implements StreamObserver<EchoResponse> {
        private final EchoGrpc.EchoStub stub;
        private final SplittableRandom random;
        private final ArrayDeque<ByteString> expected = new ArrayDeque<>();
        private StreamObserver<EchoRequest> requests;
        private int sent;
        private int answered;

        Stream(EchoGrpc.EchoStub stub, int seed) {
            this.stub = stub;
            this.random = new SplittableRandom(seed);
        }

        void startCall() {
            if (stopping()) {
                return;
            }
            calls.incrementAndGet();
            sent = 0;
            answered = 0;
            expected.clear();
            requests = stub.bidi(this);
            for (int i = 0; i < IN_FLIGHT; i++) {
                sendNext();
            }
        }

        private void sendNext() {
            if (sent == MESSAGES_PER_CALL) {
                return;
            }
            byte[] bytes = new byte[1 + random.nextInt(MAX_PAYLOAD)];
            for (int i = 0; i < bytes.length; i += 8) {
                long word = random.nextLong();
                for (int j = 0; j < 8 && i + j < bytes.length; j++) {
                    bytes[i + j] = (byte) (word >>> (8 * j));
                }
            }
            ByteString payload = ByteString.copyFrom(bytes);
            expected.add(payload);
            requests.onNext(EchoRequest.newBuilder().setPayload(payload).build());
            if (++sent == MESSAGES_PER_CALL) {
                requests.onCompleted();
            }
        }

        @Override
        public void onNext(EchoResponse response) {
            ByteString want = expected.poll();
            if (want == null || !want.equals(response.getPayload())) {
                error("call " + calls.get() + ": answer " + answered + " differs from what was sent ("
                        + response.getPayload().size() + " bytes, expected " + (want == null ? "none" : want.size())
                        + ")");
                requests.onError(Status.DATA_LOSS.withDescription("corrupt echo").asRuntimeException());
                return;
            }
            answered++;
            operationDone();
            sendNext();
        }

        @Override
        public void onError(Throwable t) {
            error("call failed after " + answered + " answers: " + Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
            if (answered != MESSAGES_PER_CALL) {
                error("call completed after " + answered + " of " + MESSAGES_PER_CALL + " answers");
                return;
            }
            startCall();
        }
    }
}
