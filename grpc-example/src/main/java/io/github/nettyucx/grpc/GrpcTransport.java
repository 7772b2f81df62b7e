/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.Locale;

/** The Netty transports gRPC can run on here: the event loop group and channel classes of each. */
public enum GrpcTransport {
    UCX("ucx", UcxServerSocketChannel.class, UcxSocketChannel.class),
    EPOLL("epoll", EpollServerSocketChannel.class, EpollSocketChannel.class),
    NIO("nio", NioServerSocketChannel.class, NioSocketChannel.class),
    IO_URING("io_uring", IoUringServerSocketChannel.class, IoUringSocketChannel.class);

    private final String id;
    private final Class<? extends ServerChannel> serverChannelType;
    private final Class<? extends SocketChannel> channelType;

    GrpcTransport(String id, Class<? extends ServerChannel> serverChannelType,
                  Class<? extends SocketChannel> channelType) {
        this.id = id;
        this.serverChannelType = serverChannelType;
        this.channelType = channelType;
    }

    /** The name used on command lines and in results: ucx, epoll, nio, io_uring. */
    public String id() {
        return id;
    }

    public static GrpcTransport of(String id) {
        for (GrpcTransport t : values()) {
            if (t.id.equals(id.toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transport '" + id + "': use ucx, epoll, nio or io_uring");
    }

    public Class<? extends ServerChannel> serverChannelType() {
        return serverChannelType;
    }

    public Class<? extends SocketChannel> channelType() {
        return channelType;
    }

    /** An event loop group of this transport whose threads are named {@code <name>-<transport>-N}. */
    public EventLoopGroup newEventLoopGroup(int threads, String name) {
        DefaultThreadFactory threadFactory = new DefaultThreadFactory(name + "-" + id, true);
        switch (this) {
            case UCX:
                return new UcxEventLoopGroup(threads, threadFactory);
            case EPOLL:
                return new MultiThreadIoEventLoopGroup(threads, threadFactory, EpollIoHandler.newFactory());
            case IO_URING:
                return new MultiThreadIoEventLoopGroup(threads, threadFactory, IoUringIoHandler.newFactory());
            default:
                return new MultiThreadIoEventLoopGroup(threads, threadFactory, NioIoHandler.newFactory());
        }
    }

    /** Why this transport cannot run in this JVM, or null when it can. */
    public Throwable unavailabilityCause() {
        switch (this) {
            case UCX:
                return Ucx.isAvailable() ? null : Ucx.unavailabilityCause();
            case EPOLL:
                return Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
            case IO_URING:
                return IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
            default:
                return null;
        }
    }

    public boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    /** Throws with the cause and what to do about it when this transport cannot run here. */
    public void ensureAvailable() {
        Throwable cause = unavailabilityCause();
        if (cause != null) {
            throw new IllegalStateException("transport " + id + " is not available here: " + cause
                    + (this == UCX ? " (bin/setup installs UCX; Ucx.unavailabilityCause() names what is missing)"
                            : " (choose another --transport)"), cause);
        }
    }
}
