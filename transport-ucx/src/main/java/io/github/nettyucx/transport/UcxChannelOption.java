/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxTrust;
import io.netty.channel.ChannelOption;

/**
 * Options of UCX channels, on top of Netty's standard ones.
 */
public final class UcxChannelOption<T> extends ChannelOption<T> {
    /**
     * Receive slots per connection: how many messages the peer may send before it waits for credit.
     * Advertised to the peer in the handshake. An idle connection holds no buffer for them (it parks, see
     * docs/protocol.md).
     */
    public static final ChannelOption<Integer> UCX_RECV_WINDOW = valueOf(UcxChannelOption.class, "UCX_RECV_WINDOW");
    /** Bytes per receive slot, which is also the largest UCX message the peer sends. */
    public static final ChannelOption<Integer> UCX_RECV_UNIT = valueOf(UcxChannelOption.class, "UCX_RECV_UNIT");
    /** Send staging slots per connection: how many sends may be in flight at once. */
    public static final ChannelOption<Integer> UCX_SEND_SLOTS = valueOf(UcxChannelOption.class, "UCX_SEND_SLOTS");
    /**
     * For an accepted channel: how long it waits for its client's first bytes, which tell a netty-ucx client from
     * a plain TCP one, before it takes a silent client for plain TCP and becomes active, so that a protocol where
     * the server speaks first (SMTP's banner, for example) works. A netty-ucx client sends its hello as soon as it
     * is connected. 0 waits for the client's bytes (up to {@link #HANDSHAKE_TIMEOUT_MILLIS}). Default 1500, more
     * than one TCP retransmission of a lost first segment; see docs/settings.md.
     */
    public static final ChannelOption<Integer> CLIENT_BYTES_WAIT_MILLIS =
            valueOf(UcxChannelOption.class, "CLIENT_BYTES_WAIT_MILLIS");
    /**
     * For an accepted channel (a server's child option): how long its peer has to finish the netty-ucx handshake (or
     * to be known as a plain TCP client) before the server closes it, whatever {@code CONNECT_TIMEOUT_MILLIS} says.
     * Short, and never unbounded (it must be positive), since each pending handshake holds one of the server's
     * {@link #MAX_PENDING_HANDSHAKES} slots. Default 10000; see docs/settings.md.
     */
    public static final ChannelOption<Integer> HANDSHAKE_TIMEOUT_MILLIS =
            valueOf(UcxChannelOption.class, "HANDSHAKE_TIMEOUT_MILLIS");
    /**
     * For a client: when the server does not speak netty-ucx (it answers the intro with other bytes, or does not
     * answer within {@code -Dio.github.nettyucx.plainTcpFallback.helloMillis}, 3 s by default), connect again as
     * plain TCP instead of failing, and remember that server for a while so that later connections go plain at
     * once. A server that closes before its intro fails the connect instead (a netty-ucx server that sheds a
     * handshake does so), and so does every such case under {@code -Dio.github.nettyucx.tcpDataPath=never}, which
     * this option never overrides. Each fallback is logged at INFO and counted.
     * The pipeline becomes active only once the mode is known, so nothing it writes is lost or sent twice. Off
     * by default ({@code -Dio.github.nettyucx.plainTcpFallback=true} turns it on for every client); see
     * docs/settings.md.
     */
    public static final ChannelOption<Boolean> PLAIN_TCP_FALLBACK = valueOf(UcxChannelOption.class,
            "PLAIN_TCP_FALLBACK");
    /**
     * Whether a large received message goes up the pipeline in the registered buffer UCX received it into (true,
     * the default: one copy fewer), or is copied into a buffer of the channel's {@code ALLOCATOR}, as NIO and epoll
     * read (false). Turn it off under a framework that releases only buffers of allocators it knows and keeps any
     * other as an unpooled heap buffer (Vert.x; netty-ucx-vertx does): the registered memory would never return to
     * its pool. See docs/settings.md.
     */
    public static final ChannelOption<Boolean> RECEIVE_IN_PLACE = valueOf(UcxChannelOption.class,
            "RECEIVE_IN_PLACE");

    /**
     * Which peers this connection hands to UCX ({@link UcxTrust}); others get the TCP data path. On a server, set it
     * as a child option. Default: {@code -Dio.github.nettyucx.trust}, or {@link UcxTrust#sameUser()}. See
     * docs/security.md.
     */
    public static final ChannelOption<UcxTrust> TRUST = valueOf(UcxChannelOption.class, "TRUST");
    /**
     * For a server: how many accepted connections may be in their handshake at once (the peer not yet known as a
     * trusted netty-ucx peer or a plain TCP client). Every new connection is admitted: at the limit, the oldest
     * pending handshake of the source (IP address, or IPv6 /64) holding the most is closed to make room. Default
     * 4096.
     */
    public static final ChannelOption<Integer> MAX_PENDING_HANDSHAKES = valueOf(UcxChannelOption.class,
            "MAX_PENDING_HANDSHAKES");
    /**
     * For a server: as {@link #MAX_PENDING_HANDSHAKES}, per source (remote IPv4 address, or IPv6 /64): at the limit,
     * that source's oldest pending handshake is closed to admit its new one. Default 1024.
     */
    public static final ChannelOption<Integer> MAX_PENDING_HANDSHAKES_PER_ADDRESS = valueOf(UcxChannelOption.class,
            "MAX_PENDING_HANDSHAKES_PER_ADDRESS");

    /**
     * For a {@link UcxDatagramChannel}: SO_REUSEPORT, which lets several sockets bind the same address and port,
     * the kernel spreading the datagrams among them. Set it before binding.
     */
    public static final ChannelOption<Boolean> SO_REUSEPORT = valueOf(UcxChannelOption.class, "SO_REUSEPORT");

    @SuppressWarnings({ "unused", "deprecation" })
    private UcxChannelOption() {
        super(null);
    }
}
