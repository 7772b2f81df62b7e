/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.netty.channel.IoEvent;

/**
 * What woke a handle: socket readiness of its side channel, or completions of its UCX connection.
 * One instance per event loop is reused for every dispatch, so handles must not keep it.
 */
public final class UcxIoEvent implements IoEvent {
    private int epollEvents;
    private boolean completions;

    /** One per loop, made by its handler. */
    UcxIoEvent() {
    }

    UcxIoEvent socket(int epollEvents) {
        this.epollEvents = epollEvents;
        this.completions = false;
        return this;
    }

    UcxIoEvent completions() {
        this.epollEvents = 0;
        this.completions = true;
        return this;
    }

    /** The epoll events of the side-channel socket, 0 for a completion event. */
    public int epollEvents() {
        return epollEvents;
    }

    /** True when UCX requests of the handle's connection completed. */
    public boolean isCompletion() {
        return completions;
    }
}
