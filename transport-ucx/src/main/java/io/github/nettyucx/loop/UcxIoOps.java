/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.jni.UcxNative;
import io.netty.channel.IoOps;

/**
 * The epoll interest of a handle's side-channel socket (readable, writable); {@link #NONE} removes the
 * socket from the loop's epoll set. The epoll bits are looked up only when the loop applies the interest,
 * so that this public class can be loaded where the native library is not.
 */
public final class UcxIoOps implements IoOps {
    private static final int READ = 1;
    private static final int WRITE = 2;
    private static final int HANG_UP = 4;

    public static final UcxIoOps NONE = new UcxIoOps(0);
    public static final UcxIoOps IN = new UcxIoOps(READ);
    public static final UcxIoOps OUT = new UcxIoOps(WRITE);
    public static final UcxIoOps IN_OUT = new UcxIoOps(READ | WRITE);
    /** The peer's hang-up alone ({@code EPOLLRDHUP}), with or without output. */
    static final UcxIoOps HANG_UP_ONLY = new UcxIoOps(HANG_UP);
    static final UcxIoOps HANG_UP_OUT = new UcxIoOps(HANG_UP | WRITE);

    /** The interest in input ({@link #IN}, which includes the hang-up), the hang-up alone, and/or output. */
    public static UcxIoOps of(boolean in, boolean hangUp, boolean out) {
        if (in) {
            return out ? IN_OUT : IN;
        }
        if (hangUp) {
            return out ? HANG_UP_OUT : HANG_UP_ONLY;
        }
        return out ? OUT : NONE;
    }

    private final int interest;

    private UcxIoOps(int interest) {
        this.interest = interest;
    }

    /** The epoll events this interest stands for ({@code EPOLLIN | EPOLLRDHUP}, {@code EPOLLOUT}). */
    int events() {
        int events = 0;
        if ((interest & READ) != 0) {
            events |= UcxNative.EPOLLIN | UcxNative.EPOLLRDHUP;
        }
        if ((interest & HANG_UP) != 0) {
            events |= UcxNative.EPOLLRDHUP;
        }
        if ((interest & WRITE) != 0) {
            events |= UcxNative.EPOLLOUT;
        }
        return events;
    }

    @Override
    public String toString() {
        return "UcxIoOps(" + ((interest & READ) != 0 ? "in" : "") + ((interest & HANG_UP) != 0 ? "hangup" : "")
                + ((interest & WRITE) != 0 ? "out" : "")
                + (interest == 0 ? "none" : "") + ')';
    }
}
