/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.grpc.ServerCredentials;
import io.grpc.ServerProvider;
import io.grpc.netty.NettyServerBuilder;

/**
 * Builds gRPC servers on UCX: the {@link NettyServerBuilder}s that grpc-netty's own provider builds (with
 * {@code NettyServerBuilder.forPort}), with {@link UcxServerSocketChannel} as their channel type, the shared UCX
 * boss group (one loop) accepting and the shared worker group serving the connections. Credentials, TLS
 * included, are grpc-netty's. The groups are released about a second after the last server and channel that
 * use them have terminated ({@link SharedUcxEventLoops}).
 *
 * <p>Registered with the service loader; {@link #priority()} is one above grpc-netty's, so
 * {@code Grpc.newServerBuilderForPort} and {@code ServerBuilder.forPort} ask this provider first. Where UCX
 * cannot run, or with {@code -Dio.github.nettyucx.grpc.enabled=false}, {@link #isAvailable()} is false and
 * grpc-netty's provider serves.
 */
public final class UcxServerProvider extends ServerProvider {
    @Override
    protected boolean isAvailable() {
        return GrpcTransportChoice.ucx();
    }

    @Override
    protected int priority() {
        return UcxManagedChannelProvider.PRIORITY;
    }

    @Override
    protected NettyServerBuilder builderForPort(int port) {
        return onUcx(NettyServerBuilder.forPort(port));
    }

    /** grpc-netty's {@code forPort(port, creds)} says with an {@link IllegalArgumentException} what it cannot take. */
    @Override
    protected NewServerBuilderResult newServerBuilderForPort(int port, ServerCredentials creds) {
        NettyServerBuilder builder;
        try {
            builder = NettyServerBuilder.forPort(port, creds);
        } catch (IllegalArgumentException e) {
            return NewServerBuilderResult.error(e.getMessage());
        }
        return NewServerBuilderResult.serverBuilder(onUcx(builder));
    }

    /**
     * grpc-netty wants the channel type and both groups together. The server holds the shared groups from its
     * {@code build()} until it and its connections have terminated ({@link GrpcNettyPools}).
     */
    private static NettyServerBuilder onUcx(NettyServerBuilder builder) {
        SharedUcxEventLoops loops = SharedUcxEventLoops.INSTANCE;
        return GrpcNettyPools.serverGroups(builder.channelType(UcxServerSocketChannel.class), loops.boss(),
                loops.worker());
    }
}
