/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

/**
 * Pooled block sizes of {@link UcxByteBufAllocator}: powers of two from 64 bytes to
 * {@link UcxAllocatorConfig#SLAB_SIZE}. Powers of two waste up to half a block, but each class
 * holds at most one partly carved slab, so few classes keep the memory that sits idle in slabs low;
 * and the index is a shift, not a table lookup.
 */
final class UcxSizeClasses {
    static final int MIN_SHIFT = 6;
    static final int MAX_SHIFT = Integer.numberOfTrailingZeros(UcxAllocatorConfig.SLAB_SIZE);
    static final int COUNT = MAX_SHIFT - MIN_SHIFT + 1;
    static final int MAX_POOLED = 1 << MAX_SHIFT;

    private UcxSizeClasses() {
    }

    /** The smallest class holding {@code capacity} bytes; capacity must be at most {@link #MAX_POOLED}. */
    static int indexOf(int capacity) {
        if (capacity <= 1 << MIN_SHIFT) {
            return 0;
        }
        return Integer.SIZE - Integer.numberOfLeadingZeros(capacity - 1) - MIN_SHIFT;
    }

    static int sizeOf(int index) {
        return 1 << (index + MIN_SHIFT);
    }
}
