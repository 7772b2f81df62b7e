/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.TCPSSLOptions;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Linux TCP options of Vert.x that its epoll transport sets and the UCX transport does not, each with the
 * reason. A UCX channel's bytes travel as UCX messages (or as frames on the side channel's socket, which always
 * runs with {@code TCP_NODELAY}), so options that shape TCP segments or the TCP handshake have nothing to act
 * on; on a connection that fell back to plain TCP they are not applied either, as on Vert.x's NIO transport.
 * Each one that an application sets is logged once per JVM, so that nobody tunes a knob that does nothing.
 */
enum IgnoredTcpOption {
    TCP_FAST_OPEN("tcpFastOpen", "a UCX connection is set up by a hello exchanged after the TCP handshake, so no "
            + "data can ride on the SYN"),
    TCP_QUICK_ACK("tcpQuickAck", "UCX traffic is not acknowledged segment by segment"),
    TCP_CORK("tcpCork", "UCX sends each flushed message as it is; the side channel always runs with TCP_NODELAY"),
    TCP_USER_TIMEOUT("tcpUserTimeout", "a lost peer is noticed by UCX's error handling and by the side channel, "
            + "whose keepalive and user timeout are the transport's own (docs/settings.md)"),
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

    /** The ignored options that {@code options} (a client's or a server's) sets. */
    static Set<IgnoredTcpOption> setIn(TCPSSLOptions options) {
        Set<IgnoredTcpOption> set = EnumSet.noneOf(IgnoredTcpOption.class);
        if (options.isTcpFastOpen()) {
            set.add(TCP_FAST_OPEN);
        }
        if (options.isTcpQuickAck()) {
            set.add(TCP_QUICK_ACK);
        }
        if (options.isTcpCork()) {
            set.add(TCP_CORK);
        }
        if (options.getTcpUserTimeout() > 0) {
            set.add(TCP_USER_TIMEOUT);
        }
        // Vert.x's epoll transport applies SO_REUSEPORT to servers only.
        if (options instanceof NetServerOptions && options.isReusePort()) {
            set.add(REUSE_PORT);
        }
        return set;
    }

    /** Logs, at INFO and once per JVM for each, that the options {@code options} sets are ignored. */
    static void logIgnored(TCPSSLOptions options) {
        for (IgnoredTcpOption option : setIn(options)) {
            if (LOGGED.add(option)) {
                logger.info("Vert.x's {} is set but ignored by the UCX transport: {}", option.vertxName,
                        option.reason);
            }
        }
    }
}
