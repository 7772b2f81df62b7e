/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import java.lang.ref.Cleaner;

/**
 * Free blocks one thread keeps for itself, per size class, so that allocating and releasing on the
 * same thread (an event loop reading, decoding and releasing) takes no lock.
 *
 * <p>Each class holds at most {@code threadCacheBytes / blockSize} blocks (at most
 * {@value #MAX_BLOCKS_PER_CLASS}); classes whose blocks are larger than the budget are not cached.
 * An empty cache takes half its capacity from the shared {@link UcxBlockPool} in one go; a full one
 * gives half back, so a thread that allocates what another releases moves blocks in batches.
 *
 * <p>Only the thread that allocated a buffer returns its block here (see {@link #owner}); blocks
 * released elsewhere go to the shared pool, so threads that only release (application threads
 * of gRPC) never hoard memory. The cached blocks go back to the shared pools when the owning
 * thread's {@code FastThreadLocal} is removed (event-loop threads do that when they end), or,
 * for plain threads, when the cache becomes unreachable after the thread died (a {@link Cleaner}).
 */
final class UcxThreadCache {
    static final int MAX_BLOCKS_PER_CLASS = 512;
    /** Released buffer objects kept by the thread (see {@link UcxBufferPool} for why not Netty's Recycler). */
    static final int MAX_BUFFERS = 256;
    private static final Cleaner CLEANER = Cleaner.create();

    final Thread owner = Thread.currentThread();
    private final Blocks blocks;
    private final Cleaner.Cleanable cleanable;
    private final UcxByteBuf[] buffers = new UcxByteBuf[MAX_BUFFERS];
    private int bufferCount;

    UcxThreadCache(UcxBlockPool[] pools, int threadCacheBytes) {
        blocks = new Blocks(pools, threadCacheBytes);
        cleanable = CLEANER.register(this, blocks);
    }

    /** A block of class {@code index}, from this cache, or else from the shared pool. */
    long poll(int index, int requestedCapacity) {
        return blocks.poll(index, requestedCapacity);
    }

    /** Keeps a block of class {@code index}; false when this cache was already flushed. */
    boolean offer(int index, long block) {
        return blocks.offer(index, block);
    }

    /** Gives every cached block back to the shared pools; later offers are refused. */
    void flush() {
        cleanable.clean();
    }

    /** A released buffer object, from this thread's stack or else from {@code shared}; null when both are empty. */
    UcxByteBuf pollBuffer(UcxBufferPool shared) {
        if (bufferCount == 0) {
            bufferCount = shared.take(buffers, MAX_BUFFERS / 2);
            if (bufferCount == 0) {
                return null;
            }
        }
        UcxByteBuf buf = buffers[--bufferCount];
        buffers[bufferCount] = null;
        return buf;
    }

    /** Keeps a released buffer object; a full stack first gives half of its objects to {@code shared}. */
    void offerBuffer(UcxByteBuf buf, UcxBufferPool shared) {
        if (bufferCount == MAX_BUFFERS) {
            int keep = MAX_BUFFERS / 2;
            shared.give(buffers, keep, bufferCount - keep);
            bufferCount = keep;
        }
        buffers[bufferCount++] = buf;
    }

    int bufferCount() {
        return bufferCount;
    }

    int cachedCount(int index) {
        return blocks.counts[index];
    }

    /** The state, separate from the cache object so that the Cleaner's action does not keep it reachable. */
    private static final class Blocks implements Runnable {
        private final UcxBlockPool[] pools;
        private final long[][] stacks;
        private final int[] counts;
        private volatile boolean flushed;

        Blocks(UcxBlockPool[] pools, int threadCacheBytes) {
            this.pools = pools;
            stacks = new long[pools.length][];
            counts = new int[pools.length];
            for (int i = 0; i < pools.length; i++) {
                int capacity = Math.min(MAX_BLOCKS_PER_CLASS, threadCacheBytes / pools[i].blockSize());
                stacks[i] = new long[capacity];
            }
        }

        long poll(int index, int requestedCapacity) {
            long[] stack = stacks[index];
            if (stack.length == 0 || flushed) {
                return pools[index].takeOne(requestedCapacity);
            }
            int count = counts[index];
            if (count == 0) {
                count = pools[index].take(stack, Math.max(1, stack.length / 2), requestedCapacity);
            }
            counts[index] = --count;
            return stack[count];
        }

        boolean offer(int index, long block) {
            long[] stack = stacks[index];
            if (stack.length == 0 || flushed) {
                return false;
            }
            int count = counts[index];
            if (count == stack.length) {
                int keep = stack.length / 2;
                pools[index].give(stack, keep, count - keep);
                count = keep;
            }
            stack[count] = block;
            counts[index] = count + 1;
            return true;
        }

        @Override
        public void run() {
            flushed = true;
            for (int i = 0; i < pools.length; i++) {
                if (counts[i] > 0) {
                    pools[i].give(stacks[i], 0, counts[i]);
                    counts[i] = 0;
                }
            }
        }
    }
}
