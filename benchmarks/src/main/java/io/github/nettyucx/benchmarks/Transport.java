/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks;

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

import java.util.Collections;
import java.util.Locale;
import java.util.Map;

/** The transports compared, each with its event loop group and channel classes. */
enum Transport {
    NIO("nio"),
    EPOLL("epoll"),
    IO_URING("io_uring"),
    UCX("ucx"),
    /** UCX restricted to TCP: both processes run with {@code UCX_TLS=tcp}. */
    UCX_TCP("ucx-tcp");

    final String id;

    Transport(String id) {
        this.id = id;
    }

    static Transport of(String id) {
        for (Transport t : values()) {
            if (t.id.equals(id.toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transport " + id + " (nio, epoll, io_uring, ucx, ucx-tcp)");
    }

    boolean isUcx() {
        return this == UCX || this == UCX_TCP;
    }

    /** Environment added to both child processes of a run. */
    Map<String, String> environment() {
        return this == UCX_TCP ? Map.of("UCX_TLS", "tcp") : Collections.emptyMap();
    }

    /** Why this transport cannot run in this JVM, or null if it can. */
    String unavailableReason() {
        Throwable cause;
        switch (this) {
            case NIO:
                return null;
            case EPOLL:
                cause = Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
                break;
            case IO_URING:
                cause = IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
                break;
            default:
                cause = Ucx.isAvailable() ? null : Ucx.unavailabilityCause();
                break;
        }
        if (cause == null) {
            return null;
        }
        String text = String.valueOf(cause);
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != cause) {
            text += " (caused by " + root + ")";
        }
        return text.replace('\n', ' ').replace('\t', ' ');
    }

    EventLoopGroup newGroup(int threads) {
        switch (this) {
            case NIO:
                return new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
            case EPOLL:
                return new MultiThreadIoEventLoopGroup(threads, EpollIoHandler.newFactory());
            case IO_URING:
                return new MultiThreadIoEventLoopGroup(threads, IoUringIoHandler.newFactory());
            default:
                return new UcxEventLoopGroup(threads);
        }
    }

    Class<? extends SocketChannel> socketChannel() {
        switch (this) {
            case NIO:
                return NioSocketChannel.class;
            case EPOLL:
                return EpollSocketChannel.class;
            case IO_URING:
                return IoUringSocketChannel.class;
            default:
                return UcxSocketChannel.class;
        }
    }

    Class<? extends ServerSocketChannel> serverSocketChannel() {
        switch (this) {
            case NIO:
                return NioServerSocketChannel.class;
            case EPOLL:
                return EpollServerSocketChannel.class;
            case IO_URING:
                return IoUringServerSocketChannel.class;
            default:
                return UcxServerSocketChannel.class;
        }
    }
}
