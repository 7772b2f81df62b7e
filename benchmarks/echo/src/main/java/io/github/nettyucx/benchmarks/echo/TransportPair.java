/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.support.NettyTransport;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The transports of a benchmark's client and server. Named by a transport id when both are the same
 * ({@code epoll}), and by {@code CLIENT-to-SERVER} when they differ ({@code epoll-to-ucx}: an epoll
 * client that a UCX server serves as plain TCP; {@code ucx-to-epoll}: a UCX client that falls back to
 * plain TCP). {@code -to-} needs no quoting in a shell, and no transport id contains it, ucx-tcp included.
 */
final class TransportPair {
    static final String SEPARATOR = "-to-";
    /** Lets a UCX client reach a server that does not speak netty-ucx (README, "Plain TCP servers"). */
    static final String PLAIN_TCP_FALLBACK = "-Dio.github.nettyucx.plainTcpFallback=true";

    private final NettyTransport client;
    private final NettyTransport server;

    TransportPair(NettyTransport client, NettyTransport server) {
        this.client = client;
        this.server = server;
    }

    /** {@code epoll}, {@code epoll-to-ucx}, {@code ucx-tcp-to-io_uring}; {@code epoll-to-epoll} is {@code epoll}. */
    static TransportPair of(String name) {
        // Transport ids ignore case (NettyTransport.of), so the separator does too.
        int at = name.toLowerCase(Locale.ROOT).indexOf(SEPARATOR);
        if (at < 0) {
            NettyTransport t = NettyTransport.of(name);
            return new TransportPair(t, t);
        }
        return new TransportPair(NettyTransport.of(name.substring(0, at)),
                NettyTransport.of(name.substring(at + SEPARATOR.length())));
    }

    NettyTransport client() {
        return client;
    }

    NettyTransport server() {
        return server;
    }

    boolean mixed() {
        return client != server;
    }

    /** The name on command lines and in results. */
    String id() {
        return mixed() ? client.id() + SEPARATOR + server.id() : client.id();
    }

    /** The client JVM's options besides the common ones: the fallback when a UCX client meets a plain server. */
    List<String> clientJvmOptions() {
        return client.isUcx() && !server.isUcx() ? List.of(PLAIN_TCP_FALLBACK) : List.of();
    }

    /** What the child JVMs are started with beyond the common options, for progress lines; empty if nothing. */
    String settings() {
        if (!mixed()) {
            return client.environment().isEmpty() ? "" : " with " + client.environment();
        }
        StringBuilder s = new StringBuilder();
        appendSide(s, "client", client.environment(), clientJvmOptions());
        appendSide(s, "server", server.environment(), List.of());
        return s.toString();
    }

    private static void appendSide(StringBuilder s, String side, Map<String, String> environment,
                                   List<String> options) {
        if (environment.isEmpty() && options.isEmpty()) {
            return;
        }
        s.append(s.length() == 0 ? " with " : ", ").append(side);
        if (!environment.isEmpty()) {
            s.append(' ').append(environment);
        }
        options.forEach(o -> s.append(' ').append(o));
    }

    @Override
    public String toString() {
        return id();
    }
}
