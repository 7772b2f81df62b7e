/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannelBuilder;
import io.grpc.ManagedChannelProvider;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyChannelProvider;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Collection;
import java.util.Collections;

/**
 * Builds gRPC channels on UCX: the {@link NettyChannelBuilder}s that grpc-netty's own provider builds, with
 * {@link UcxSocketChannel} as their channel type and the shared UCX worker group as their event loops.
 * Credentials, TLS included, and name resolution are grpc-netty's: the builders come from
 * {@link NettyChannelProvider} (its public methods are the only way to hand a builder the name resolver registry
 * that {@code Grpc.newChannelBuilder(target, credentials, registry)} passes) or from
 * {@code NettyChannelBuilder.forTarget}/{@code forAddress}.
 *
 * <p>Registered with the service loader; {@link #priority()} is one above grpc-netty's, so gRPC asks this
 * provider first. Where UCX cannot run, or with {@code -Dio.github.nettyucx.grpc.enabled=false},
 * {@link #isAvailable()} is false and grpc-netty's provider serves. Only {@link InetSocketAddress} targets are
 * taken: a {@code unix:} target goes to grpc-netty's domain socket provider.
 */
public final class UcxManagedChannelProvider extends ManagedChannelProvider {
    /** One above the priority of grpc-netty's and grpc-netty-shaded's providers. */
    static final int PRIORITY = 6;

    private final NettyChannelProvider netty = new NettyChannelProvider();

    @Override
    protected boolean isAvailable() {
        return GrpcTransportChoice.ucx();
    }

    @Override
    protected int priority() {
        return PRIORITY;
    }

    @Override
    protected NettyChannelBuilder builderForAddress(String name, int port) {
        return onUcx(NettyChannelBuilder.forAddress(name, port));
    }

    @Override
    protected NettyChannelBuilder builderForTarget(String target) {
        return onUcx(NettyChannelBuilder.forTarget(target));
    }

    @Override
    protected NewChannelBuilderResult newChannelBuilder(String target, ChannelCredentials creds) {
        return onUcx(netty.newChannelBuilder(target, creds));
    }

    @Override
    protected NewChannelBuilderResult newChannelBuilder(String target, ChannelCredentials creds,
                                                        NameResolverRegistry nameResolverRegistry,
                                                        NameResolverProvider nameResolverProvider) {
        return onUcx(netty.newChannelBuilder(target, creds, nameResolverRegistry, nameResolverProvider));
    }

    @Override
    protected Collection<Class<? extends SocketAddress>> getSupportedSocketAddressTypes() {
        return Collections.singleton(InetSocketAddress.class);
    }

    /** grpc-netty's answer with its builder put on UCX, or its error as it is. */
    private static NewChannelBuilderResult onUcx(NewChannelBuilderResult result) {
        ManagedChannelBuilder<?> builder = result.getChannelBuilder();
        if (builder == null) {
            return result;
        }
        return NewChannelBuilderResult.channelBuilder(onUcx((NettyChannelBuilder) builder));
    }

    /**
     * grpc-netty wants the channel type and the event loop group together. Every channel gRPC builds comes here,
     * also to servers that do not speak netty-ucx (another service, a cloud API): those are reached as plain TCP.
     * The channel holds the shared worker group from its {@code build()} until it has terminated
     * ({@link GrpcNettyPools}).
     */
    private static NettyChannelBuilder onUcx(NettyChannelBuilder builder) {
        return GrpcNettyPools.channelGroup(builder.channelType(UcxSocketChannel.class, InetSocketAddress.class),
                        SharedUcxEventLoops.INSTANCE.worker())
                .withOption(UcxChannelOption.PLAIN_TCP_FALLBACK, true);
    }
}
