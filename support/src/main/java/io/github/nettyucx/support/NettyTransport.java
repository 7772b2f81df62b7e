/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.support;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
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
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Collectors;

/**
 * A Netty transport chosen by the name a command line gives: its event loop group, its channel classes and
 * whether it can run in this JVM. Code written against {@link SocketChannel} and {@link ServerSocketChannel}
 * runs unchanged on every one of them, which is what lets the examples and benchmarks compare them.
 */
public enum NettyTransport {
    NIO("nio"),
    EPOLL("epoll"),
    IO_URING("io_uring"),
    UCX("ucx"),
    /**
     * UCX restricted to TCP, as between hosts without RDMA: its connections take the transport's TCP data
     * path rather than UCX's tcp transport. UCX reads {@code UCX_TLS} from the environment when the process
     * creates its context, and a running JVM cannot change its own environment: the JVM has to be started with
     * {@link #environment()} (launchers pass it to {@link ChildProcess#start}), and this transport counts as
     * unavailable in a JVM that was not.
     */
    UCX_TCP("ucx-tcp");

    private static final String UCX_TLS = "UCX_TLS";
    private static final String TCP_ONLY = "tcp";

    private final String id;

    NettyTransport(String id) {
        this.id = id;
    }

    /** The name used on command lines and in results: nio, epoll, io_uring, ucx, ucx-tcp. */
    public String id() {
        return id;
    }

    /**
     * The transport with this name, ignoring case, surrounding blanks and the difference between {@code -}
     * and {@code _} (so {@code io-uring} and {@code ucx_tcp} are accepted too).
     */
    public static NettyTransport of(String name) {
        String wanted = normalized(name);
        for (NettyTransport t : values()) {
            if (normalized(t.id).equals(wanted)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transport '" + name + "' (choose " + names() + ")");
    }

    private static String normalized(String name) {
        return name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    }

    private static String names() {
        return Arrays.stream(values()).map(NettyTransport::id).collect(Collectors.joining(", "));
    }

    /** True for the transports that run over UCX. */
    public boolean isUcx() {
        return this == UCX || this == UCX_TCP;
    }

    /** Environment variables a process must be started with for this transport to be what its name says. */
    public Map<String, String> environment() {
        return this == UCX_TCP ? Map.of(UCX_TLS, TCP_ONLY) : Map.of();
    }

    /** Why this transport cannot run in this JVM, or null when it can. */
    public Throwable unavailabilityCause() {
        switch (this) {
            case NIO:
                return null;
            case EPOLL:
                return Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
            case IO_URING:
                return IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
            case UCX:
                return Ucx.isAvailable() ? null : Ucx.unavailabilityCause();
            default:
                if (!Ucx.isAvailable()) {
                    return Ucx.unavailabilityCause();
                }
                String tls = System.getenv(UCX_TLS);
                return TCP_ONLY.equals(tls) ? null : new IllegalStateException(id + " needs " + UCX_TLS + "="
                        + TCP_ONLY + " in the environment of this JVM, which has "
                        + (tls == null ? "none" : UCX_TLS + "=" + tls) + ": start the JVM with it");
        }
    }

    public boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    /**
     * Why this transport cannot run here as one line (the cause, and its root cause when that is another
     * exception), or null when it can.
     */
    public String unavailabilityReason() {
        Throwable cause = unavailabilityCause();
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
        return text.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
    }

    /**
     * Why a JVM that this one starts on this machine with {@link #environment()} could not run this transport
     * (one line), or null when it could. A coordinator that only launches the JVMs doing the work asks this:
     * ucx-tcp is unavailable in the coordinator itself, which runs without {@code UCX_TLS=tcp}, but available
     * to its children wherever UCX is.
     */
    public String unavailabilityReasonForChildJvm() {
        return this == UCX_TCP ? UCX.unavailabilityReason() : unavailabilityReason();
    }

    /** Throws an {@link IllegalStateException} naming the cause and what to do when this transport cannot run. */
    public void ensureAvailable() {
        Throwable cause = unavailabilityCause();
        if (cause != null) {
            throw new IllegalStateException("transport " + id + " is not available here: " + unavailabilityReason()
                    + " (choose another transport, e.g. nio)", cause);
        }
    }

    /** An event loop group of this transport with Netty's default thread factory. */
    public EventLoopGroup newEventLoopGroup(int threads) {
        return newEventLoopGroup(threads, (ThreadFactory) null);
    }

    /**
     * An event loop group of this transport whose daemon threads are named {@code <name>-<transport>-N}, so
     * that thread dumps of a process running several transports tell them apart.
     */
    public EventLoopGroup newEventLoopGroup(int threads, String name) {
        return newEventLoopGroup(threads, new DefaultThreadFactory(name + "-" + id, true));
    }

    /**
     * An event loop group of this transport; {@code threadFactory} null means Netty's default. Fails with
     * {@link #ensureAvailable()}'s explanation when the transport cannot run here.
     */
    public EventLoopGroup newEventLoopGroup(int threads, ThreadFactory threadFactory) {
        ensureAvailable();
        if (isUcx()) {
            return new UcxEventLoopGroup(threads, threadFactory);
        }
        return new MultiThreadIoEventLoopGroup(threads, threadFactory, ioHandlerFactory());
    }

    private IoHandlerFactory ioHandlerFactory() {
        switch (this) {
            case EPOLL:
                return EpollIoHandler.newFactory();
            case IO_URING:
                return IoUringIoHandler.newFactory();
            default:
                return NioIoHandler.newFactory();
        }
    }

    public Class<? extends SocketChannel> socketChannel() {
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

    public Class<? extends ServerSocketChannel> serverSocketChannel() {
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
