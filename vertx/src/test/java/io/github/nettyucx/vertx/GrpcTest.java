/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import com.google.protobuf.ByteString;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.github.nettyucx.vertx.echo.EchoReply;
import io.github.nettyucx.vertx.echo.EchoRequest;
import io.github.nettyucx.vertx.echo.EchoServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * A vertx-grpc server on UCX, written against vertx-grpc-server's own API, called by grpc-java's generated stub
 * (grpc-netty): from NIO, served as plain TCP, and from UCX, a UCX connection end to end. Unary and bidirectional
 * streaming calls, each payload checked.
 */
@ExtendWith(NoLeaks.class)
class GrpcTest {
    private static final ServiceName SERVICE = ServiceName.create(EchoServiceGrpc.SERVICE_NAME);
    private static final ServiceMethod<EchoRequest, EchoReply> UNARY = ServiceMethod.server(SERVICE, "Unary",
            GrpcMessageEncoder.encoder(), GrpcMessageDecoder.decoder(EchoRequest.newBuilder()));
    private static final ServiceMethod<EchoRequest, EchoReply> STREAM = ServiceMethod.server(SERVICE, "Stream",
            GrpcMessageEncoder.encoder(), GrpcMessageDecoder.decoder(EchoRequest.newBuilder()));
    /** Below vertx-grpc-server's default largest message. */
    private static final int PAYLOAD_BYTES = 200 * 1024;
    private static final int STREAMED = 20;

    private static Vertx vertx;
    private static HttpServer server;

    /** The grpc-java client's transport. */
    enum Client {
        NIO {
            @Override
            NettyChannelBuilder onTransport(NettyChannelBuilder builder, EventLoopGroup[] group) {
                group[0] = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
                return builder.channelType(NioSocketChannel.class, InetSocketAddress.class).eventLoopGroup(group[0]);
            }
        },
        UCX {
            @Override
            NettyChannelBuilder onTransport(NettyChannelBuilder builder, EventLoopGroup[] group) {
                group[0] = new UcxEventLoopGroup(1);
                return builder.channelType(UcxSocketChannel.class, InetSocketAddress.class).eventLoopGroup(group[0]);
            }
        };

        abstract NettyChannelBuilder onTransport(NettyChannelBuilder builder, EventLoopGroup[] group);
    }

    @BeforeAll
    static void start() throws Exception {
        UcxChecks.requireUcx();
        vertx = VertxInstances.onUcx();
        GrpcServer grpc = GrpcServer.server(vertx);
        grpc.callHandler(UNARY, request -> request.handler(message -> request.response().end(reply(message, 1))));
        grpc.callHandler(STREAM, request -> {
            AtomicInteger count = new AtomicInteger();
            request.handler(message -> request.response().write(reply(message, count.incrementAndGet())));
            request.endHandler(end -> request.response().end());
        });
        server = Await.result(vertx.createHttpServer().requestHandler(grpc).listen(0, "127.0.0.1"));
    }

    @AfterAll
    static void stop() throws Exception {
        VertxInstances.close(vertx);
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void unaryAndStreamingCalls(Client client) throws Exception {
        EventLoopGroup[] group = new EventLoopGroup[1];
        ManagedChannel channel = client.onTransport(NettyChannelBuilder.forAddress("127.0.0.1", server.actualPort()),
                group).usePlaintext().build();
        try {
            EchoRequest request = request(0);
            EchoReply reply = EchoServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                    .unary(request);
            assertEquals(request.getPayload(), reply.getPayload());
            assertEquals(1, reply.getCount());

            List<EchoReply> replies = stream(channel);
            assertEquals(STREAMED, replies.size());
            for (int i = 0; i < STREAMED; i++) {
                assertEquals(request(i + 1).getPayload(), replies.get(i).getPayload(), "payload " + i);
                assertEquals(i + 1, replies.get(i).getCount());
            }

            List<Channel> clients = ChannelRecorder.clientsTo(server.actualPort());
            assertEquals(1, clients.size(), "grpc-java's connections: " + clients);
            List<Channel> accepted = ChannelRecorder.acceptedFrom(clients);
            assertEquals(1, accepted.size(), "the server's end of " + clients + ": " + accepted);
            if (client == Client.UCX) {
                UcxChecks.assertUcxConnections(clients);
                UcxChecks.assertUcxConnections(accepted);
            } else {
                assertInstanceOf(NioSocketChannel.class, clients.get(0));
                UcxChecks.assertPlainTcpConnections(accepted);
            }
        } finally {
            channel.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
            group[0].shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }

    /** Sends {@link #STREAMED} requests on one call and returns the replies. */
    private static List<EchoReply> stream(ManagedChannel channel) throws Exception {
        CompletableFuture<List<EchoReply>> done = new CompletableFuture<>();
        List<EchoReply> replies = new ArrayList<>();
        StreamObserver<EchoRequest> requests = EchoServiceGrpc.newStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .stream(new StreamObserver<EchoReply>() {
                    @Override
                    public void onNext(EchoReply reply) {
                        replies.add(reply);
                    }

                    @Override
                    public void onError(Throwable t) {
                        done.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        done.complete(replies);
                    }
                });
        for (int i = 1; i <= STREAMED; i++) {
            requests.onNext(request(i));
        }
        requests.onCompleted();
        return done.get(30, TimeUnit.SECONDS);
    }

    private static EchoRequest request(int seed) {
        return EchoRequest.newBuilder().setPayload(ByteString.copyFrom(HttpTest.randomBytes(PAYLOAD_BYTES, 100 + seed)))
                .build();
    }

    private static EchoReply reply(EchoRequest request, int count) {
        return EchoReply.newBuilder().setPayload(request.getPayload()).setCount(count).build();
    }
}
