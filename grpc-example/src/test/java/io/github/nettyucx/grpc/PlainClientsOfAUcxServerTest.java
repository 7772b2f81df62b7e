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
import io.github.nettyucx.support.NettyTransport;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * gRPC clients that do not speak netty-ucx against grpc-example's echo service on a UCX server: grpc-java on NIO
 * and epoll, and Python's grpcio (from PyPI, in a virtual environment under {@code target/}). The server serves
 * them as plain TCP on its one port.
 */
@ExtendWith(LeakCheck.class)
class PlainClientsOfAUcxServerTest {

    @ParameterizedTest
    @EnumSource(value = NettyTransport.class, names = {"NIO", "EPOLL"})
    @Timeout(120)
    void grpcJavaOnAPlainTransportMakesEveryKindOfCall(NettyTransport clientTransport) throws Exception {
        TestTransports.assumeAvailable(clientTransport);
        try (GrpcHarness h = GrpcHarness.on(NettyTransport.UCX).service(new EchoService()).start()) {
            EventLoopGroup group = clientTransport.newEventLoopGroup(1, "plain-grpc-client");
            NettyChannelBuilder builder = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1",
                    h.port()));
            GrpcWiring.onTransport(builder, clientTransport, group, AllocatorChoice.GRPC);
            ManagedChannel channel = builder.usePlaintext().build();
            try {
                everyKindOfCall(channel);
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
                group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }

    private static void everyKindOfCall(ManagedChannel channel) throws Exception {
        EchoGrpc.EchoBlockingStub blocking = EchoGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
        for (int size : new int[] {0, 16, 65536, 300_000}) {
            ByteString payload = Payloads.of(size);
            assertEquals(payload, blocking.unary(EchoRequest.newBuilder().setPayload(payload).build()).getPayload());
        }
        Iterator<EchoResponse> stream = blocking.serverStream(StreamRequest.newBuilder().setMessageBytes(4096)
                .setCount(200).build());
        int streamed = 0;
        while (stream.hasNext()) {
            assertEquals(Payloads.of(4096), stream.next().getPayload());
            streamed++;
        }
        assertEquals(200, streamed);

        EchoGrpc.EchoStub async = EchoGrpc.newStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
        CompletableFuture<StreamSummary> summary = new CompletableFuture<>();
        StreamObserver<EchoRequest> upload = async.clientStream(observer(summary, new ArrayList<>()));
        for (int i = 0; i < 100; i++) {
            upload.onNext(EchoRequest.newBuilder().setPayload(Payloads.of(1000)).build());
        }
        upload.onCompleted();
        assertEquals(100, summary.get(30, TimeUnit.SECONDS).getMessages());

        List<EchoResponse> answers = new ArrayList<>();
        CompletableFuture<EchoResponse> bidiDone = new CompletableFuture<>();
        StreamObserver<EchoRequest> bidi = async.bidi(observer(bidiDone, answers));
        for (int i = 0; i < 50; i++) {
            bidi.onNext(EchoRequest.newBuilder().setPayload(Payloads.of(i * 100)).build());
        }
        bidi.onCompleted();
        bidiDone.get(30, TimeUnit.SECONDS);
        assertEquals(50, answers.size());
        for (int i = 0; i < 50; i++) {
            assertEquals(Payloads.of(i * 100), answers.get(i).getPayload(), "bidi answer " + i);
        }
    }

    /** Completes {@code done} with the last message at the end of the call, collecting all of them. */
    private static <T> StreamObserver<T> observer(CompletableFuture<T> done, List<T> all) {
        return new StreamObserver<T>() {
            private T last;

            @Override
            public void onNext(T value) {
                last = value;
                synchronized (all) {
                    all.add(value);
                }
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                done.complete(last);
            }
        };
    }

    /** Python's grpcio, with stubs generated from this module's echo.proto, makes every kind of call. */
    @Test
    @Timeout(300)
    void pythonGrpcioMakesEveryKindOfCall() throws Exception {
        Path python = PythonGrpc.interpreter();
        Path work = Files.createDirectories(Paths.get("target", "python-grpc-client"));
        run(python.toString(), "-m", "grpc_tools.protoc", "-I", "src/main/proto", "--python_out=" + work,
                "--grpc_python_out=" + work, "src/main/proto/echo.proto");
        Path script = work.resolve("echo_client.py");
        Files.writeString(script, String.join("\n",
                "import sys, grpc, echo_pb2, echo_pb2_grpc",
                "ch = grpc.insecure_channel('127.0.0.1:' + sys.argv[1])",
                "stub = echo_pb2_grpc.EchoStub(ch)",
                "r = stub.Unary(echo_pb2.EchoRequest(payload=b'hello'), timeout=30)",
                "print('unary', r.payload.decode())",
                "r = stub.Unary(echo_pb2.EchoRequest(response_bytes=100000), timeout=30)",
                "print('sized', len(r.payload))",
                "req = echo_pb2.StreamRequest(message_bytes=1000, count=50)",
                "n = sum(len(m.payload) for m in stub.ServerStream(req, timeout=30))",
                "print('server stream', n)",
                "s = stub.ClientStream(iter([echo_pb2.EchoRequest(payload=b'x' * 10) for _ in range(20)]), timeout=30)",
                "print('client stream', s.messages, s.bytes)",
                "out = [m.payload.decode() for m in stub.Bidi(iter([echo_pb2.EchoRequest(payload=str(i).encode())"
                        + " for i in range(5)]), timeout=30)]",
                "print('bidi', ' '.join(out))",
                ""));
        try (GrpcHarness h = GrpcHarness.on(NettyTransport.UCX).service(new EchoService()).start()) {
            String out = run(python.toString(), script.toString(), String.valueOf(h.port()));
            assertEquals(String.join("\n", "unary hello", "sized 100000", "server stream 50000",
                    "client stream 20 200", "bidi 0 1 2 3 4", ""), out);
        }
    }

    /** Runs a command in this module's directory; returns its output, failing with it unless it exits with 0. */
    static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(240, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish:\n" + out);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited with " + process.exitValue() + ":\n"
                    + out);
        }
        return out;
    }
}
