/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import com.google.protobuf.ByteString;
import io.github.nettyucx.grpc.EchoService;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.grpc.echo.StreamRequest;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.Context;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * gRPC as applications build it: {@code Grpc.newServerBuilderForPort} and {@code Grpc.newChannelBuilder}, blocking
 * stubs called from application threads, gRPC's default executors. With netty-ucx-grpc on the class path the
 * providers make that UCX; switched off ({@code -Dio.github.nettyucx.grpc.enabled=false}) it is grpc-netty, which
 * takes epoll where it can load it, and NIO when native transports are off.
 */
final class GrpcFramework implements Framework {
    static final String ID = "grpc";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Scenario> scenarios() {
        return List.of(Scenario.calls(1024, 1), Scenario.calls(1024, 8), Scenario.stream(64 * 1024));
    }

    @Override
    public List<String> jvmOptions(BenchTransport transport) {
        if (transport.isUcx()) {
            return List.of();
        }
        return transport.netty() == NettyTransport.NIO
                ? List.of("-Dio.github.nettyucx.grpc.enabled=false", "-Dio.netty.transport.noNative=true")
                : List.of("-Dio.github.nettyucx.grpc.enabled=false");
    }

    @Override
    public Framework.Server serve(BenchTransport transport) throws Exception {
        io.grpc.Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new EchoService()).build().start();
        return new Framework.Server() {
            @Override
            public int port() {
                return server.getPort();
            }

            @Override
            public void close() {
                server.shutdownNow();
                Framework.awaitQuietly(() -> server.awaitTermination(10, TimeUnit.SECONDS));
            }
        };
    }

    @Override
    public Client connect(BenchTransport transport, int port) {
        ManagedChannel channel = Grpc.newChannelBuilder("localhost:" + port, InsecureChannelCredentials.create())
                .maxInboundMessageSize(16 * 1024 * 1024).build();
        EchoGrpc.EchoBlockingStub stub = EchoGrpc.newBlockingStub(channel);
        return new Client() {
            @Override
            public void call(byte[] body) {
                EchoResponse response = stub.unary(EchoRequest.newBuilder().setPayload(ByteString.copyFrom(body))
                        .build());
                if (response.getPayload().size() != body.length) {
                    throw new IllegalStateException("answer of " + response.getPayload().size() + " bytes to "
                            + body.length);
                }
            }

            @Override
            public void stream(int messageBytes, LongConsumer onBytes, BooleanSupplier stop) throws Exception {
                try (Context.CancellableContext context = Context.current().withCancellation()) {
                    context.call(() -> {
                        Iterator<EchoResponse> it = stub.serverStream(StreamRequest.newBuilder()
                                .setMessageBytes(messageBytes).setCount(0).build());
                        while (!stop.getAsBoolean() && it.hasNext()) {
                            onBytes.accept(it.next().getPayload().size());
                        }
                        return null;
                    });
                }
            }

            @Override
            public void close() {
                channel.shutdownNow();
                Framework.awaitQuietly(() -> channel.awaitTermination(10, TimeUnit.SECONDS));
            }
        };
    }
}
