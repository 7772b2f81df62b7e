/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

import java.util.Locale;

/**
 * The Netty transports the store runs on. Server and client code is the same for all of them; only
 * the event loop group and channel classes come from here.
 */
public enum KvTransport {
    UCX("ucx"),
    EPOLL("epoll"),
    IO_URING("io_uring"),
    NIO("nio");

    private final String id;

    KvTransport(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static KvTransport of(String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        for (KvTransport t : values()) {
            if (t.id.equals(wanted)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transport '" + id + "' (choose ucx, epoll, io_uring or nio)");
    }

    /** Throws an exception naming the cause and the fix when this transport cannot run here. */
    public void ensureAvailable() {
        Throwable cause;
        switch (this) {
            case UCX:
                cause = Ucx.isAvailable() ? null : Ucx.unavailabilityCause();
                break;
            case EPOLL:
                cause = Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
                break;
            case IO_URING:
                cause = IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
                break;
            default:
                cause = null;
                break;
        }
        if (cause != null) {
            throw new IllegalStateException("transport " + id + " is not available here: " + cause.getMessage()
                    + " (choose another with --transport, e.g. nio)", cause);
        }
    }

    public EventLoopGroup newGroup(int threads) {
        ensureAvailable();
        switch (this) {
            case UCX:
                return new UcxEventLoopGroup(threads);
            case EPOLL:
                return new MultiThreadIoEventLoopGroup(threads, EpollIoHandler.newFactory());
            case IO_URING:
                return new MultiThreadIoEventLoopGroup(threads, IoUringIoHandler.newFactory());
            default:
                return new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        }
    }

    public Class<? extends SocketChannel> socketChannel() {
        switch (this) {
            case UCX:
                return UcxSocketChannel.class;
            case EPOLL:
                return EpollSocketChannel.class;
            case IO_URING:
                return IoUringSocketChannel.class;
            default:
                return NioSocketChannel.class;
        }
    }

    public Class<? extends ServerSocketChannel> serverSocketChannel() {
        switch (this) {
            case UCX:
                return UcxServerSocketChannel.class;
            case EPOLL:
                return EpollServerSocketChannel.class;
            case IO_URING:
                return IoUringServerSocketChannel.class;
            default:
                return NioServerSocketChannel.class;
        }
    }
}
