/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.vertx.core.net.TcpConfig;
import io.vertx.core.net.TcpOption;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Linux TCP options of Vert.x that its epoll transport sets and the UCX transport does not, each with the
 * reason. A UCX channel's bytes travel as UCX messages, so options that shape TCP segments or the TCP handshake
 * have nothing to act on; on a connection that is plain TCP (the TCP data path, or a peer that does not speak
 * netty-ucx) they are not applied either, as on Vert.x's NIO transport.
 * Each one that an application sets is logged once per JVM, so that nobody tunes a knob that does nothing.
 */
enum IgnoredTcpOption {
    TCP_FAST_OPEN("tcpFastOpen", "a UCX connection is set up by a hello exchanged after the TCP handshake, so no "
            + "data can ride on the SYN"),
    TCP_QUICK_ACK("tcpQuickAck", "UCX traffic is not acknowledged segment by segment"),
    TCP_CORK("tcpCork", "UCX sends each flushed message as it is; the side channel always runs with TCP_NODELAY"),
    TCP_USER_TIMEOUT("tcpUserTimeout", "a lost peer is noticed by UCX's error handling and by the side channel, "
            + "whose keepalive and user timeout are the transport's own (docs/settings.md)"),
    TCP_KEEPALIVE_IDLE("tcpKeepAliveIdleSeconds", Reasons.KEEPALIVE_TIMERS),
    TCP_KEEPALIVE_COUNT("tcpKeepAliveCount", Reasons.KEEPALIVE_TIMERS),
    TCP_KEEPALIVE_INTERVAL("tcpKeepAliveIntervalSeconds", Reasons.KEEPALIVE_TIMERS),
    REUSE_PORT("reusePort", "a UcxServerSocketChannel binds one listening socket per address; the servers of one "
            + "Vert.x instance on the same port share it, as on the NIO transport");

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(IgnoredTcpOption.class);
    private static final Set<IgnoredTcpOption> LOGGED = ConcurrentHashMap.newKeySet();

    private final String vertxName;
    private final String reason;

    IgnoredTcpOption(String vertxName, String reason) {
        this.vertxName = vertxName;
        this.reason = reason;
    }

    /** The name of the option in Vert.x's options classes (and their JSON form). */
    String vertxName() {
        return vertxName;
    }

    /**
     * The ignored options that {@code config} (a client's, or a server's when {@code server}) sets: those that
     * Vert.x's epoll transport would apply, with the values it would apply.
     */
    static Set<IgnoredTcpOption> setIn(TcpConfig config, boolean server) {
        Set<IgnoredTcpOption> set = EnumSet.noneOf(IgnoredTcpOption.class);
        // Vert.x keeps a client's fast open as a flag and a server's as the length of its queue.
        if (Boolean.TRUE.equals(config.getOption(TcpOption.FASTOPEN_CONNECT))
                || positive(config.getOption(TcpOption.FASTOPEN))) {
            set.add(TCP_FAST_OPEN);
        }
        if (Boolean.TRUE.equals(config.getOption(TcpOption.QUICKACK))) {
            set.add(TCP_QUICK_ACK);
        }
        if (Boolean.TRUE.equals(config.getOption(TcpOption.CORK))) {
            set.add(TCP_CORK);
        }
        if (positive(config.getOption(TcpOption.USER_TIMEOUT))) {
            set.add(TCP_USER_TIMEOUT);
        }
        // Zero leaves the system's timer in place, on epoll too.
        if (positive(config.getOption(TcpOption.KEEPIDLE))) {
            set.add(TCP_KEEPALIVE_IDLE);
        }
        if (positive(config.getOption(TcpOption.KEEPCNT))) {
            set.add(TCP_KEEPALIVE_COUNT);
        }
        if (positive(config.getOption(TcpOption.KEEPINTVL))) {
            set.add(TCP_KEEPALIVE_INTERVAL);
        }
        // Vert.x's epoll transport applies SO_REUSEPORT to servers only.
        if (server && config.isSoReusePort()) {
            set.add(REUSE_PORT);
        }
        return set;
    }

    /** Logs, at INFO and once per JVM for each, that the options {@code config} sets are ignored. */
    static void logIgnored(TcpConfig config, boolean server) {
        for (IgnoredTcpOption option : setIn(config, server)) {
            if (LOGGED.add(option)) {
                logger.info("Vert.x's {} is set but ignored by the UCX transport: {}", option.vertxName,
                        option.reason);
            }
        }
    }

    private static boolean positive(Integer value) {
        return value != null && value > 0;
    }

    /** Reasons that several options share; an enum's constants cannot name its own static fields. */
    private static final class Reasons {
        static final String KEEPALIVE_TIMERS = "the keepalive of a UCX connection's side channel, and of a plain "
                + "TCP connection's socket, runs on the transport's own timers (docs/settings.md)";
    }
}
