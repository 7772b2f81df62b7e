/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

/**
 * Released {@link UcxByteBuf} objects (without memory) that any thread may reuse: the objects of
 * buffers released on a thread other than the one that allocated them, and the overflow of the
 * per-thread stacks in {@link UcxThreadCache}.
 *
 * <p>Why not Netty's {@code Recycler}: in Netty 4.2 it pools only on threads that clean up their
 * {@code FastThreadLocal}s (event loops) and creates a new object for every {@code get()} elsewhere,
 * so buffers allocated on application threads (gRPC serializes messages there) would cost an
 * object each. These objects hold no native memory, so pooling them on any thread leaks nothing:
 * a dead thread's stack is simply garbage collected.
 *
 * <p>Bounded: beyond {@value #MAX_BUFFERS} idle objects, released ones are left to the garbage
 * collector, so a burst of live buffers does not pin heap forever.
 */
final class UcxBufferPool {
    static final int MAX_BUFFERS = 4096;

    // Guarded by this.
    private final UcxByteBuf[] buffers = new UcxByteBuf[MAX_BUFFERS];
    private int count;

    /** Moves up to {@code max} objects into {@code dst} starting at 0; returns how many. */
    synchronized int take(UcxByteBuf[] dst, int max) {
        int n = Math.min(max, count);
        for (int i = 0; i < n; i++) {
            dst[i] = buffers[--count];
            buffers[count] = null;
        }
        return n;
    }

    synchronized UcxByteBuf takeOne() {
        if (count == 0) {
            return null;
        }
        UcxByteBuf buf = buffers[--count];
        buffers[count] = null;
        return buf;
    }

    synchronized void give(UcxByteBuf buf) {
        if (count < buffers.length) {
            buffers[count++] = buf;
        }
    }

    /** Keeps objects {@code src[from, from + n)} while there is room, and clears those slots of {@code src}. */
    synchronized void give(UcxByteBuf[] src, int from, int n) {
        for (int i = from; i < from + n; i++) {
            if (count < buffers.length) {
                buffers[count++] = src[i];
            }
            src[i] = null;
        }
    }

    synchronized int size() {
        return count;
    }
}
