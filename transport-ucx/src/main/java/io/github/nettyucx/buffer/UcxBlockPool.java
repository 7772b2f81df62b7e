/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import java.util.Arrays;

/**
 * The shared pool of one size class: free blocks (block ids, see {@link UcxRegions}) that any
 * thread may take or give back, plus the slab currently being carved into new blocks.
 *
 * <p>One lock per class keeps it simple and correct for buffers released on other threads than
 * they were allocated on; per-thread caches ({@link UcxThreadCache}) move blocks in batches so
 * that the lock is taken once per batch, not once per buffer. Blocks are carved from a slab only
 * when no freed block is left, so the free stack never holds more ids than the class's peak of
 * blocks in use.
 */
final class UcxBlockPool {
    private final UcxRegions regions;
    private final int blockSize;
    // Guarded by this.
    private long[] free = new long[64];
    private int freeCount;
    private long nextInSlab;
    private long slabEnd;

    UcxBlockPool(UcxRegions regions, int blockSize) {
        this.regions = regions;
        this.blockSize = blockSize;
    }

    int blockSize() {
        return blockSize;
    }

    /**
     * Moves between 1 and {@code max} blocks into {@code dst}; returns how many.
     *
     * @throws UcxOutOfMemoryError when no block is free and no new region may be mapped
     */
    synchronized int take(long[] dst, int max, int requestedCapacity) {
        int n = Math.min(max, freeCount);
        System.arraycopy(free, freeCount - n, dst, 0, n);
        freeCount -= n;
        while (n < max) {
            if (nextInSlab == slabEnd) {
                if (n > 0) {
                    break;
                }
                nextInSlab = regions.takeSlab(requestedCapacity);
                slabEnd = nextInSlab + UcxAllocatorConfig.SLAB_SIZE / blockSize * blockSize;
            }
            dst[n++] = nextInSlab;
            nextInSlab += blockSize;
        }
        return n;
    }

    synchronized long takeOne(int requestedCapacity) {
        if (freeCount > 0) {
            return free[--freeCount];
        }
        if (nextInSlab == slabEnd) {
            nextInSlab = regions.takeSlab(requestedCapacity);
            slabEnd = nextInSlab + UcxAllocatorConfig.SLAB_SIZE / blockSize * blockSize;
        }
        long block = nextInSlab;
        nextInSlab += blockSize;
        return block;
    }

    synchronized void give(long[] src, int from, int n) {
        ensureFree(n);
        System.arraycopy(src, from, free, freeCount, n);
        freeCount += n;
    }

    synchronized void give(long block) {
        ensureFree(1);
        free[freeCount++] = block;
    }

    synchronized int freeCount() {
        return freeCount;
    }

    private void ensureFree(int more) {
        if (freeCount + more > free.length) {
            free = Arrays.copyOf(free, Math.max(free.length * 2, freeCount + more));
        }
    }
}
