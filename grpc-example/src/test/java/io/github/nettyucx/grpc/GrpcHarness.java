/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoopGroup;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A gRPC server and a channel to it on one transport, in this JVM, over 127.0.0.1. Each has its own
 * event loop groups (boss, worker, client), so client and server talk through the transport as two
 * processes would. {@link #close()} shuts everything down and waits for it.
 */
final class GrpcHarness implements AutoCloseable {
    private final NettyTransport transport;
    private final AllocatorChoice allocator;
    private final List<ServerServiceDefinition> services;
    private final Consumer<NettyServerBuilder> serverConfig;
    private final Consumer<NettyChannelBuilder> channelConfig;
    private final EventLoopGroup boss;
    private final EventLoopGroup worker;
    private final EventLoopGroup clientGroup;
    private final List<ManagedChannel> channels = new ArrayList<>();
    private Server server;
    private int port;

    private GrpcHarness(Builder b) {
        this.transport = b.transport;
        this.allocator = b.allocator;
        this.services = b.services;
        this.serverConfig = b.serverConfig;
        this.channelConfig = b.channelConfig;
        this.boss = transport.newEventLoopGroup(1, "test-boss");
        this.worker = transport.newEventLoopGroup(1, "test-worker");
        this.clientGroup = transport.newEventLoopGroup(1, "test-client");
    }

    static Builder on(NettyTransport transport) {
        TestTransports.assumeAvailable(transport);
        return new Builder(transport);
    }

    NettyTransport transport() {
        return transport;
    }

    Server server() {
        return server;
    }

    int port() {
        return port;
    }

    /** The first channel, created by {@link Builder#start()}. */
    ManagedChannel channel() {
        return channels.get(0);
    }

    /** Another channel to the server, configured like the first and then by {@code extra}. */
    ManagedChannel newChannel(Consumer<NettyChannelBuilder> extra) {
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1", port));
        GrpcWiring.onTransport(builder, transport, clientGroup, allocator);
        builder.usePlaintext();
        channelConfig.accept(builder);
        extra.accept(builder);
        ManagedChannel channel = builder.build();
        channels.add(channel);
        return channel;
    }

    /** Starts a server with the same services and configuration on {@code port} (0: any free port). */
    void startServer(int port) throws IOException {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port));
        GrpcWiring.onTransport(builder, transport, boss, worker, allocator);
        services.forEach(builder::addService);
        serverConfig.accept(builder);
        server = builder.build().start();
        this.port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
    }

    /** Stops the server at once (calls in flight fail) and waits until it has terminated. */
    void killServer() throws InterruptedException {
        server.shutdownNow();
        if (!server.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the server did not terminate within 10 s of shutdownNow");
        }
    }

    /** Shuts everything down even when a part does not terminate in time, then reports what did not. */
    @Override
    public void close() throws InterruptedException {
        List<String> stuck = new ArrayList<>();
        for (ManagedChannel c : channels) {
            c.shutdownNow();
        }
        for (ManagedChannel c : channels) {
            if (!c.awaitTermination(10, TimeUnit.SECONDS)) {
                stuck.add("a channel did not terminate within 10 s of shutdownNow");
            }
        }
        if (server != null) {
            server.shutdownNow();
            if (!server.awaitTermination(10, TimeUnit.SECONDS)) {
                stuck.add("the server did not terminate within 10 s of shutdownNow");
            }
        }
        EventLoopGroup[] groups = {clientGroup, worker, boss};
        for (EventLoopGroup g : groups) {
            g.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        }
        for (EventLoopGroup g : groups) {
            if (!g.terminationFuture().await(10, TimeUnit.SECONDS)) {
                stuck.add("an event loop group did not terminate within 10 s");
            }
        }
        if (!stuck.isEmpty()) {
            throw new AssertionError(String.join("; ", stuck));
        }
    }

    static final class Builder {
        private final NettyTransport transport;
        private AllocatorChoice allocator = AllocatorChoice.GRPC;
        private final List<ServerServiceDefinition> services = new ArrayList<>();
        private Consumer<NettyServerBuilder> serverConfig = b -> { };
        private Consumer<NettyChannelBuilder> channelConfig = b -> { };

        private Builder(NettyTransport transport) {
            this.transport = transport;
        }

        Builder service(BindableService service) {
            services.add(service.bindService());
            return this;
        }

        Builder service(ServerServiceDefinition service) {
            services.add(service);
            return this;
        }

        Builder allocator(AllocatorChoice choice) {
            this.allocator = choice;
            return this;
        }

        Builder server(Consumer<NettyServerBuilder> config) {
            this.serverConfig = config;
            return this;
        }

        Builder channel(Consumer<NettyChannelBuilder> config) {
            this.channelConfig = config;
            return this;
        }

        /** Starts the server on a free port and creates the first channel to it. */
        GrpcHarness start() throws Exception {
            GrpcHarness h = new GrpcHarness(this);
            try {
                h.startServer(0);
                h.newChannel(b -> { });
                return h;
            } catch (Throwable t) {
                h.close();
                throw t;
            }
        }
    }
}
