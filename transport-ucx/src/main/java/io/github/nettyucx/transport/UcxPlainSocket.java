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
    /** The options that apply to a plain TCP socket. */
    enum Option {
        TCP_NODELAY,
        SO_KEEPALIVE,
        SO_SNDBUF,
        SO_RCVBUF,
        /** IP_TOS, or IPV6_TCLASS on an IPv6 socket. */
        IP_TOS;

        int level(boolean ipv6) {
            switch (this) {
                case TCP_NODELAY:
                    return UcxNative.IPPROTO_TCP;
                case IP_TOS:
                    return ipv6 ? UcxNative.IPPROTO_IPV6 : UcxNative.IPPROTO_IP;
                default:
                    return UcxNative.SOL_SOCKET;
            }
        }

        int name(boolean ipv6) {
            switch (this) {
                case TCP_NODELAY:
                    return UcxNative.TCP_NODELAY;
                case SO_KEEPALIVE:
                    return UcxNative.SO_KEEPALIVE;
                case SO_SNDBUF:
                    return UcxNative.SO_SNDBUF;
                case SO_RCVBUF:
                    return UcxNative.SO_RCVBUF;
                default:
                    return ipv6 ? UcxNative.IPV6_TCLASS : UcxNative.IP_TOS;
            }
        }
    }

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

    /** Sets {@code option} on the socket, when the connection is plain. */
    void set(Option option, int value) {
        int socket = fd;
        if (socket < 0) {
            return;
        }
        try {
            UcxNative.socketSetOption(socket, option.level(ipv6), option.name(ipv6), value);
        } catch (IOException e) {
            throw new ChannelException(e);
        }
    }

    /** The socket's value of {@code option} when the connection is plain, else {@code configured}. */
    int get(Option option, int configured) {
        int socket = fd;
        if (socket < 0) {
            return configured;
        }
        try {
            return UcxNative.socketGetOption(socket, option.level(ipv6), option.name(ipv6));
        } catch (IOException e) {
            throw new ChannelException(e);
        }
    }
}
