/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.ChannelException;

import java.io.IOException;

/**
 * The socket of a plain TCP connection, as its channel's configuration sees it: TCP options set on the
 * configuration of a channel that is plain TCP go to this socket (and are read back from it), as on a NIO or
 * epoll channel. Before the connection is known to be plain, and after it closed, the configuration only keeps
 * the values; {@link #attach} applies them. A UCX connection's socket carries only the handshake and records,
 * with options of its own ({@code ucx_socket.c}).
 */
final class UcxPlainSocket {
    /** Written on the event loop; read by any thread that sets or reads an option. */
    private volatile int fd = -1;
    private volatile boolean ipv6;

    /**
     * The connection became plain TCP on {@code socket} (of the IPv6 family when {@code isIpv6}): the configured
     * options apply to it from now on.
     */
    void attach(int socket, boolean isIpv6, UcxSocketChannelConfig config) {
        ipv6 = isIpv6;
        fd = socket;
        try {
            config.applyTo(this);
        } catch (RuntimeException e) {
            fd = -1;
            throw e;
        }
    }

    /** The socket is closing (or going back to being a handshake socket): options stay in the configuration. */
    void detach() {
        fd = -1;
    }

    /** Sets {@code option} (one with a kernel name) on the socket, when the connection is plain. */
    <T> void set(UcxOption<T> option, T value) {
        int socket = fd;
        if (socket < 0) {
            return;
        }
        try {
            option.kernel().set(socket, ipv6, option.toKernel(value));
        } catch (IOException e) {
            throw new ChannelException("could not set " + option.kernel() + " to " + value + ": " + e.getMessage(),
                    e);
        }
    }

    /** The socket's value of {@code option} when the connection is plain, else {@code configured}. */
    <T> T get(UcxOption<T> option, T configured) {
        int socket = fd;
        if (socket < 0) {
            return configured;
        }
        try {
            return option.fromKernel(option.kernel().get(socket, ipv6));
        } catch (IOException e) {
            throw new ChannelException("could not read " + option.kernel() + ": " + e.getMessage(), e);
        }
    }
}
