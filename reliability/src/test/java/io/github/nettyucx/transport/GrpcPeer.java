/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import com.google.protobuf.ByteString;
import io.github.nettyucx.grpc.EchoService;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.grpc.ForwardingServerCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC side of {@link ReliabilityPeer} (modes {@code grpc-server HOST} and {@code grpc-client HOST PORT}),
 * for gRPC across {@link TwoHosts}: the grpc-example module's echo service over UCX.
 *
 * <pre>
 *   grpc-server HOST        serves Echo on HOST:0                  prints PORT n; CALL-CANCELLED method,
 *                                                                  CALL-ENDED method
 *   grpc-client HOST PORT   unary calls of 1 B-1 MiB, then one bidi stream of checked 16 KiB messages
 *                           prints UNARY n ok|CORRUPT what, STREAMED n every second (CORRUPT what), then
 *                           FAILED code description, ms after the last answer, if the stream fails
 * </pre>
 */
final class GrpcPeer {
    static final String UNARY = "UNARY ";
    static final String STREAMED = "STREAMED ";
    static final String FAILED = "FAILED ";
    static final String CALL_CANCELLED = "CALL-CANCELLED ";
    static final String CALL_ENDED = "CALL-ENDED ";
    private static final int[] UNARY_SIZES = {1, 100, 4096, 65536, 65537, 300_000, 1 << 20};
    private static final int STREAM_MESSAGE = 16 * 1024;
    private static final int IN_FLIGHT = 4;

    private GrpcPeer() {
    }

    static void serve(String host) throws Exception {
        EventLoopGroup group = TestTransport.UCX.newGroup(1);
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(host, 0))
                .channelType(UcxServerSocketChannel.class)
                .bossEventLoopGroup(group).workerEventLoopGroup(group)
                .addService(ServerInterceptors.intercept(new EchoService(), new CallReporter()))
                .build().start();
        ReliabilityPeer.print(ReliabilityPeer.PORT + server.getPort());
    }

    static void call(String host, int port) throws Exception {
        EventLoopGroup group = TestTransport.UCX.newGroup(1);
        ManagedChannel channel = NettyChannelBuilder.forAddress(host, port)
                .channelType(UcxSocketChannel.class).eventLoopGroup(group).usePlaintext()
                .maxInboundMessageSize(4 << 20).build();
        unary(channel);
        new CheckedStream(EchoGrpc.newStub(channel)).start();
    }

    private static void unary(ManagedChannel channel) {
        EchoGrpc.EchoBlockingStub stub = EchoGrpc.newBlockingStub(channel).withWaitForReady();
        DataStream sent = new DataStream(7);
        DataStream answered = new DataStream(7); // check() moves along the stream
        for (int size : UNARY_SIZES) {
            ByteString payload = ByteString.copyFrom(sent.next(size));
            EchoResponse response = stub.withDeadlineAfter(60, TimeUnit.SECONDS)
                    .unary(EchoRequest.newBuilder().setPayload(payload).build());
            String error = response.getPayload().size() != size ? "answer of " + size + " bytes has "
                    + response.getPayload().size() : answered.check(Unpooled.wrappedBuffer(
                    response.getPayload().asReadOnlyByteBuffer()));
            if (error != null) {
                ReliabilityPeer.print(UNARY + UNARY_SIZES.length + " CORRUPT " + error);
                return;
            }
        }
        ReliabilityPeer.print(UNARY + UNARY_SIZES.length + " ok");
    }

    /** Keeps {@value #IN_FLIGHT} messages in flight on one bidi call and checks every answered byte. */
    private static final class CheckedStream implements StreamObserver<EchoResponse> {
        private final EchoGrpc.EchoStub stub;
        private final DataStream sent = new DataStream(11);
        private final DataStream answered = new DataStream(11);
        private final ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor();
        private StreamObserver<EchoRequest> requests;
        private volatile long answers;
        private volatile long lastAnswerNanos = System.nanoTime();
        private volatile String error;

        CheckedStream(EchoGrpc.EchoStub stub) {
            this.stub = stub;
        }

        void start() {
            requests = stub.bidi(this);
            for (int i = 0; i < IN_FLIGHT; i++) {
                sendOne();
            }
            reporter.scheduleAtFixedRate(() -> ReliabilityPeer.print(STREAMED + answers
                    + (error == null ? "" : " CORRUPT " + error)), 1, 1, TimeUnit.SECONDS);
        }

        private void sendOne() {
            requests.onNext(EchoRequest.newBuilder().setPayload(ByteString.copyFrom(sent.next(STREAM_MESSAGE)))
                    .build());
        }

        // gRPC calls these one at a time for the call.
        @Override
        public void onNext(EchoResponse response) {
            if (error == null) {
                error = answered.check(Unpooled.wrappedBuffer(response.getPayload().asReadOnlyByteBuffer()));
            }
            answers++;
            lastAnswerNanos = System.nanoTime();
            sendOne();
        }

        @Override
        public void onError(Throwable t) {
            Status status = Status.fromThrowable(t);
            ReliabilityPeer.print(FAILED + status.getCode() + " " + status.getDescription() + " (cause: "
                    + status.getCause() + "), " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastAnswerNanos)
                    + " ms after the last answer");
            reporter.shutdown();
        }

        @Override
        public void onCompleted() {
            ReliabilityPeer.print(FAILED + "the server completed the stream it should have kept open");
            reporter.shutdown();
        }
    }

    /** Prints how each call ended on the server. */
    private static final class CallReporter implements ServerInterceptor {
        @Override
        public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
                                                           ServerCallHandler<Q, A> next) {
            String method = call.getMethodDescriptor().getFullMethodName();
            ServerCall.Listener<Q> listener = next.startCall(call, headers);
            return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
                @Override
                public void onCancel() {
                    ReliabilityPeer.print(CALL_CANCELLED + method);
                    super.onCancel();
                }

                @Override
                public void onComplete() {
                    ReliabilityPeer.print(CALL_ENDED + method);
                    super.onComplete();
                }
            };
        }
    }
}
