/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.IoOps;

/**
 * The epoll interest of a handle's side-channel socket ({@code EPOLLIN}, {@code EPOLLOUT}, ...);
 * {@link #NONE} removes the socket from the loop's epoll set.
 */
public final class UcxIoOps implements IoOps {
    public static final UcxIoOps NONE = new UcxIoOps(0);
    static final UcxIoOps IN = new UcxIoOps(UcxNative.EPOLLIN | UcxNative.EPOLLRDHUP);
    static final UcxIoOps IN_OUT = new UcxIoOps(UcxNative.EPOLLIN | UcxNative.EPOLLRDHUP | UcxNative.EPOLLOUT);

    private final int events;

    private UcxIoOps(int events) {
        this.events = events;
    }

    int events() {
        return events;
    }

    @Override
    public String toString() {
        return "UcxIoOps(" + Integer.toHexString(events) + ')';
    }
}
