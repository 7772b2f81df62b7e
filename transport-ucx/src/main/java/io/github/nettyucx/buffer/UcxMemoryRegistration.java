/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * <strong>Internal:</strong> what the UCX transport ({@code io.github.nettyucx.transport}) needs from this
 * allocator: the allocator its channels post receives into ({@link #receiveAllocator()}) and the UCX memory handle
 * of a buffer ({@link #memoryHandleOf(ByteBuf)}). It is public only because the two live in different packages
 * (the transport above, this package below it, both over the native layer {@code io.github.nettyucx.jni}); it is
 * not for users and may change or go away in any release.
 */
public final class UcxMemoryRegistration {
    private UcxMemoryRegistration() {
    }

    /** The allocator of the buffers UCX channels post their receives into. */
    public static ByteBufAllocator receiveAllocator() {
        return UcxByteBufAllocator.RECEIVE;
    }

    /**
     * The {@code ucp_mem_h} of the registered region holding {@code buf}'s memory when a
     * {@link UcxByteBufAllocator} made it, else 0. Valid while {@code buf} is not released. Allocates nothing.
     */
    public static long memoryHandleOf(ByteBuf buf) {
        return UcxByteBufAllocator.memoryHandleOf(buf);
    }
}
