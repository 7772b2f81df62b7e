/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.netty.channel.IoRegistration;

import java.io.IOException;

/**
 * A channel's seat in its event loop: all that a channel asks of {@link UcxIoHandler} once registered (the loop
 * in turn sees the channel as a {@link UcxIoHandle}). On the event-loop thread, except {@link #cancel()}.
 */
public interface UcxLoopSeat extends IoRegistration {
    /** Stops watching the channel's socket: before the socket is closed or handed over, so its number can be reused. */
    void removeFromEpoll();

    /**
     * The channel's socket carries a plain TCP connection (the loop then polls sockets more often); returns what the
     * loop's plain connections lay their writes out in, one at a time. {@code spinning}: the connection is the TCP
     * data path of a netty-ucx peer, which keeps the loop waiting as its wait strategy says, as a UCX connection
     * does; other plain connections alone have it wait as epoll's loop does.
     */
    UcxPlainGather watchPlainSocket(boolean spinning);

    /** The plain TCP connection of the channel's socket is closed. */
    void plainSocketGone();

    /** Binds a UCX connection of the channel; returns the index its completions are reported under. */
    int bindConnection() throws IOException;

    /** The channel's UCX connection is closed: its completions no longer reach the channel. */
    void unbindConnection();

    /** The loop's UCP worker, on which the channel's connection is made. */
    UcxWorker worker();

    /** A same-host peer of the channel vanished without closing: see {@link UcxSharedMemoryProbe}. */
    void sameHostPeerVanished();
}
