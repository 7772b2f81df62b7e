/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

/**
 * Thrown by {@link UcxByteBufAllocator} when a buffer would take the allocator's mapped memory
 * beyond its limit ({@value UcxAllocatorConfig#MAX_MEMORY_PROPERTY}), or when the operating system
 * refuses to map more memory. Like Netty's {@code OutOfDirectMemoryError}, the message says how much
 * was asked for, how much is in use and what the limit is.
 */
public final class UcxOutOfMemoryError extends OutOfMemoryError {
    private static final long serialVersionUID = 1L;

    UcxOutOfMemoryError(String message) {
        super(message);
    }

    UcxOutOfMemoryError(String message, Throwable cause) {
        super(message);
        initCause(cause);
    }
}
