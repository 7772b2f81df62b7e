/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.ChannelOption;

/**
 * Options of UCX channels, on top of Netty's standard ones.
 */
public final class UcxChannelOption<T> extends ChannelOption<T> {
    /**
     * Receive slots pre-posted per connection: how many messages the peer may send before it
     * waits for credit. Advertised to the peer in the handshake.
     */
    public static final ChannelOption<Integer> UCX_RECV_WINDOW = valueOf(UcxChannelOption.class, "UCX_RECV_WINDOW");
    /** Bytes per receive slot, which is also the largest UCX message the peer sends. */
    public static final ChannelOption<Integer> UCX_RECV_UNIT = valueOf(UcxChannelOption.class, "UCX_RECV_UNIT");
    /** Send staging slots per connection: how many sends may be in flight at once. */
    public static final ChannelOption<Integer> UCX_SEND_SLOTS = valueOf(UcxChannelOption.class, "UCX_SEND_SLOTS");

    @SuppressWarnings({ "unused", "deprecation" })
    private UcxChannelOption() {
        super(null);
    }
}
