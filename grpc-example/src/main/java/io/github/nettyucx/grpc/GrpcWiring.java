/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

/**
 * Puts a gRPC server or channel on a transport. Only the builders' public calls are used: the channel
 * type with its event loop groups, and optionally the allocator (see {@link AllocatorChoice}).
 */
public final class GrpcWiring {
    private GrpcWiring() {
    }

    /**
     * The server side: {@code channelType} plus the boss and worker groups, which gRPC wants all together.
     * The groups stay the caller's to shut down, after the server has terminated.
     */
    public static NettyServerBuilder onTransport(NettyServerBuilder builder, NettyTransport transport,
                                                 EventLoopGroup boss, EventLoopGroup worker,
                                                 AllocatorChoice allocator) {
        builder.channelType(transport.serverSocketChannel())
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(worker);
        ByteBufAllocator chosen = allocator.allocatorFor(transport);
        if (chosen != null) {
            builder.withChildOption(ChannelOption.ALLOCATOR, chosen);
        }
        return builder;
    }

    /** The client side: {@code channelType} plus the event loop group, which stays the caller's to shut down. */
    public static NettyChannelBuilder onTransport(NettyChannelBuilder builder, NettyTransport transport,
                                                  EventLoopGroup group, AllocatorChoice allocator) {
        builder.channelType(transport.socketChannel()).eventLoopGroup(group);
        ByteBufAllocator chosen = allocator.allocatorFor(transport);
        if (chosen != null) {
            builder.withOption(ChannelOption.ALLOCATOR, chosen);
        }
        return builder;
    }
}
