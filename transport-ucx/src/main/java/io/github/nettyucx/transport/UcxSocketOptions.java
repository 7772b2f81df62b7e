/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxHandshake;
import io.github.nettyucx.handshake.UcxTrust;
import io.netty.channel.ChannelOption;
import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.SystemPropertyUtil;

import java.util.function.UnaryOperator;

import static io.github.nettyucx.jni.UcxKernelOption.named;

/**
 * Every option of a {@link UcxSocketChannel}, declared once: its default, its check, and for the TCP options
 * that a plain TCP connection's socket takes, the kernel's name (looked up in ucx_constants.c). A new option is
 * one line here; a new socket option also one row in {@code NUCX_SOCKET_OPTIONS}. TCP options have no meaning
 * for UCX traffic: until a connection is plain TCP they are kept and reported only.
 */
final class UcxSocketOptions {
    static final UcxOptionTable TABLE = new UcxOptionTable();
    static final int DEFAULT_RECV_WINDOW = 8;
    static final int DEFAULT_RECV_UNIT = 64 * 1024;
    static final int DEFAULT_SEND_SLOTS = 8;
    /**
     * More than Linux's first retransmission timeout (1 s): a netty-ucx client whose intro was lost once is still
     * waited for, not taken for a plain TCP client; a server that speaks first waits that long for its banner.
     */
    static final int DEFAULT_CLIENT_BYTES_WAIT_MILLIS = 1500;
    /** Seconds, not the connect timeout's 30: a stalled handshake holds one of the server's pending slots. */
    static final int DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    private static final boolean DEFAULT_PLAIN_TCP_FALLBACK =
            SystemPropertyUtil.getBoolean("io.github.nettyucx.plainTcpFallback", false);

    static final UcxOption<Boolean> ALLOW_HALF_CLOSURE = TABLE.flag(ChannelOption.ALLOW_HALF_CLOSURE, false);
    static final UcxOption<Boolean> TCP_NODELAY = TABLE.flag(ChannelOption.TCP_NODELAY, true,
            named("TCP_NODELAY"));
    static final UcxOption<Boolean> SO_KEEPALIVE = TABLE.flag(ChannelOption.SO_KEEPALIVE, true,
            named("SO_KEEPALIVE"));
    /** The close's kind (0: a reset), not the kernel's linger: a UCX connection's close lingers on its own. */
    static final UcxOption<Integer> SO_LINGER = TABLE.number(ChannelOption.SO_LINGER, -1);
    static final UcxOption<Integer> SO_SNDBUF = TABLE.number(ChannelOption.SO_SNDBUF,
            DEFAULT_SEND_SLOTS * DEFAULT_RECV_UNIT, UnaryOperator.identity(), named("SO_SNDBUF"));
    static final UcxOption<Integer> SO_RCVBUF = TABLE.number(ChannelOption.SO_RCVBUF,
            DEFAULT_RECV_WINDOW * DEFAULT_RECV_UNIT, UnaryOperator.identity(), named("SO_RCVBUF"));
    static final UcxOption<Integer> IP_TOS = TABLE.number(ChannelOption.IP_TOS, 0, UnaryOperator.identity(),
            named("IP_TOS", "IPV6_TCLASS"));
    static final UcxOption<Boolean> SO_REUSEADDR = TABLE.flag(ChannelOption.SO_REUSEADDR, false);
    static final UcxOption<Integer> UCX_RECV_WINDOW = TABLE.number(UcxChannelOption.UCX_RECV_WINDOW,
            DEFAULT_RECV_WINDOW, 1, UcxHandshake.MAX_RECV_WINDOW);
    static final UcxOption<Integer> UCX_RECV_UNIT = TABLE.number(UcxChannelOption.UCX_RECV_UNIT,
            DEFAULT_RECV_UNIT, 64, 64 * 1024 * 1024);
    static final UcxOption<Integer> UCX_SEND_SLOTS = TABLE.number(UcxChannelOption.UCX_SEND_SLOTS,
            DEFAULT_SEND_SLOTS, 1, UcxHandshake.MAX_RECV_WINDOW);
    /** Null until set: the process's default ({@link UcxTrust#processDefault()}), read when first needed. */
    static final UcxOption<UcxTrust> TRUST = TABLE.value(UcxChannelOption.TRUST, UcxTrust::processDefault,
            trust -> ObjectUtil.checkNotNull(trust, "TRUST"));
    static final UcxOption<Integer> CLIENT_BYTES_WAIT_MILLIS = TABLE.number(
            UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS, DEFAULT_CLIENT_BYTES_WAIT_MILLIS,
            millis -> ObjectUtil.checkPositiveOrZero(millis, "CLIENT_BYTES_WAIT_MILLIS"), null);
    static final UcxOption<Integer> HANDSHAKE_TIMEOUT_MILLIS = TABLE.number(
            UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS, DEFAULT_HANDSHAKE_TIMEOUT_MILLIS,
            millis -> ObjectUtil.checkPositive(millis, "HANDSHAKE_TIMEOUT_MILLIS"), null);
    static final UcxOption<Boolean> PLAIN_TCP_FALLBACK = TABLE.flag(UcxChannelOption.PLAIN_TCP_FALLBACK,
            DEFAULT_PLAIN_TCP_FALLBACK);
    static final UcxOption<Boolean> RECEIVE_IN_PLACE = TABLE.flag(UcxChannelOption.RECEIVE_IN_PLACE, true);

    private UcxSocketOptions() {
    }
}
