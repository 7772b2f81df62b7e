/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Which {@link ByteBufAllocator} the gRPC channels allocate from.
 *
 * <p>grpc-netty sets {@code ChannelOption.ALLOCATOR} on every channel it creates, client and server, to
 * its own {@code PooledByteBufAllocator} (or to {@code ByteBufAllocator.DEFAULT} when the system property
 * {@code io.grpc.netty.useCustomAllocator=false}). It applies the options given to
 * {@code NettyServerBuilder.withChildOption} / {@code NettyChannelBuilder.withOption} after its own, so
 * those override it: that is how {@link #CHANNEL} hands the choice back to the transport.
 */
public enum AllocatorChoice {
    /** gRPC's own pooled allocator: what an unmodified gRPC application uses. */
    GRPC("grpc"),
    /**
     * The allocator the transport's channel is configured with when nobody overrides it. Today that is
     * {@code ByteBufAllocator.DEFAULT} for every transport; a transport that brings its own allocator
     * (as UCX will with registered memory) is picked up here without changes.
     */
    CHANNEL("channel");

    private static final Map<NettyTransport, ByteBufAllocator> CHANNEL_DEFAULTS = new EnumMap<>(NettyTransport.class);

    private final String id;

    AllocatorChoice(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static AllocatorChoice of(String id) {
        for (AllocatorChoice c : values()) {
            if (c.id.equals(id.toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown allocator '" + id + "': use grpc or channel");
    }

    /** The allocator to install over gRPC's, or null to leave gRPC's in place. */
    public ByteBufAllocator allocatorFor(NettyTransport transport) {
        return this == GRPC ? null : channelDefaultAllocator(transport);
    }

    /**
     * Reads the default allocator from a fresh, never registered channel of the transport. Asking the
     * channel itself (instead of assuming {@code ByteBufAllocator.DEFAULT}) keeps this right for a
     * transport whose config chooses its own allocator.
     */
    static synchronized ByteBufAllocator channelDefaultAllocator(NettyTransport transport) {
        ByteBufAllocator cached = CHANNEL_DEFAULTS.get(transport);
        if (cached != null) {
            return cached;
        }
        transport.ensureAvailable();
        Channel probe;
        try {
            probe = transport.socketChannel().getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create a " + transport.socketChannel().getName()
                    + " to read its default allocator", e);
        }
        try {
            ByteBufAllocator allocator = probe.config().getAllocator();
            CHANNEL_DEFAULTS.put(transport, allocator);
            return allocator;
        } finally {
            // NIO and epoll channels open a socket in their constructor. The channel was never
            // registered, so close through its unsafe: the pipeline would need an event loop.
            probe.unsafe().close(probe.unsafe().voidPromise());
        }
    }
}
