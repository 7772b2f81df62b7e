/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.github.nettyucx.jni.UcxContext;
import io.github.nettyucx.jni.UcxMemoryRegion;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link io.netty.buffer.ByteBufAllocator} whose direct buffers live in memory registered with
 * UCX once, up front ({@code ucp_mem_map}), so that the transport can hand UCX the region's memory
 * handle with each send and receive and large (rendezvous) transfers go zero-copy without a
 * registration-cache lookup.
 *
 * <h2>Layout</h2>
 * Memory is mapped and registered in regions of {@value UcxAllocatorConfig#REGION_SIZE_PROPERTY}
 * bytes (default 4 MiB), cut into 1 MiB slabs; a slab belongs to one size class (powers of two from
 * 64 B to 1 MiB) and is carved into that class's blocks. A buffer of more than 1 MiB gets a region
 * of its own, mapped and registered on allocation and unmapped when the buffer is released: that
 * costs a system call or two more than a pooled block, little next to filling a megabyte, and
 * large buffers do not pin memory in the pools after a burst.
 *
 * <h2>Threads</h2>
 * Each thread keeps a small cache of free blocks per class ({@link UcxThreadCache}, at most
 * {@value UcxAllocatorConfig#THREAD_CACHE_PROPERTY} bytes per class, default 256 KiB); beyond it,
 * blocks come from and go to one shared, locked pool per class, in batches. A buffer may be released
 * on any thread. Buffer objects are pooled too (per thread, then shared; not with Netty's
 * {@code Recycler}, which pools only on event-loop threads), so steady-state allocate/release
 * creates no garbage on any thread.
 *
 * <h2>Limits</h2>
 * The memory mapped (pooled regions plus dedicated ones) never exceeds
 * {@value UcxAllocatorConfig#MAX_MEMORY_PROPERTY} (default: the JVM's direct-memory limit);
 * an allocation that would exceed it throws {@link UcxOutOfMemoryError} naming the property. Pooled
 * regions are kept until {@link #close()}; a slab stays with the size class that carved it, so a
 * workload that moves from one size to another keeps the first size's memory mapped.
 *
 * <p>If {@code ucp_mem_map} fails (on RDMA hosts typically the locked-memory limit), the region is
 * used unregistered and a warning says so once: correct, only without the zero-copy shortcut.
 *
 * <p>Heap buffers are Netty's unpooled heap buffers, counted in {@link #metric()}.
 */
public final class UcxByteBufAllocator extends AbstractByteBufAllocator implements ByteBufAllocatorMetricProvider {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxByteBufAllocator.class);

    /**
     * The allocator of the process, configured by the {@code io.github.nettyucx.allocator.*} system
     * properties and never closed (like the UCP context, it lives as long as the JVM). Creating it
     * loads the UCX native library: where UCX is unavailable, initializing this class fails with
     * the {@link UnsatisfiedLinkError} of {@link UcxContext#ensureCreated()} as its cause.
     */
    public static final UcxByteBufAllocator DEFAULT = new UcxByteBufAllocator(UcxAllocatorConfig.fromSystemProperties());

    /**
     * Where UCX channels post their receives (see {@code UcxConnection}, which gets it from
     * {@link UcxMemoryRegistration#receiveAllocator()}); large messages go up the pipeline in these buffers.
     */
    static final UcxByteBufAllocator RECEIVE = new UcxByteBufAllocator(UcxAllocatorConfig.forReceiveBuffers());

    private final UcxAllocatorConfig config;
    private final UcxRegions regions;
    private final UcxBlockPool[] pools;
    private final FastThreadLocal<UcxThreadCache> threadCaches;
    private final UcxBufferPool buffers = new UcxBufferPool();
    private final LongAdder activeBytes = new LongAdder();
    private final LongAdder heapBytes = new LongAdder();
    private final UcxByteBufAllocatorMetric metric;
    private volatile boolean closed;

    UcxByteBufAllocator(UcxAllocatorConfig config) {
        super(true);
        UcxContext.ensureCreated();
        this.config = config;
        regions = new UcxRegions(config);
        pools = new UcxBlockPool[UcxSizeClasses.COUNT];
        for (int i = 0; i < pools.length; i++) {
            pools[i] = new UcxBlockPool(regions, UcxSizeClasses.sizeOf(i));
        }
        threadCaches = config.threadCacheBytes == 0 ? null : new FastThreadLocal<UcxThreadCache>() {
            @Override
            protected UcxThreadCache initialValue() {
                return new UcxThreadCache(pools, config.threadCacheBytes);
            }

            @Override
            protected void onRemoval(UcxThreadCache cache) {
                cache.flush();
            }
        };
        metric = new UcxByteBufAllocatorMetric(this);
        logger.debug("UcxByteBufAllocator: {}", config);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return true;
    }

    /*
     * buffer() is direct, as asked of the super constructor, also where Netty would fall back to heap buffers because
     * the JDK's cleaner is out of its reach (no Unsafe on JDK 17): this allocator frees its memory itself.
     */

    @Override
    public ByteBuf buffer() {
        return directBuffer();
    }

    @Override
    public ByteBuf buffer(int initialCapacity) {
        return directBuffer(initialCapacity);
    }

    @Override
    public ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return directBuffer(initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        UcxThreadCache cache = threadCache();
        UcxByteBuf buf = newBufferObject(cache).reset(this, maxCapacity);
        try {
            allocateBlock(buf, initialCapacity, cache);
        } catch (Throwable t) {
            buf.release();
            throw t;
        }
        return toLeakAwareBuffer(buf);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return toLeakAwareBuffer(new CountedHeapByteBuf(initialCapacity, maxCapacity));
    }

    @Override
    public UcxByteBufAllocatorMetric metric() {
        return metric;
    }

    /**
     * The memory of the buffers UCX channels post their receives into: a pool of its own, apart from
     * {@link #DEFAULT}, whose buffers carry large received messages up the pipeline. Like {@link #DEFAULT}, its
     * first use loads the UCX native library.
     */
    public static UcxByteBufAllocatorMetric receiveBuffersMetric() {
        return RECEIVE.metric();
    }

    /**
     * The {@code ucp_mem_h} of the registered region holding {@code buf}'s memory, or 0 when the
     * memory is not from a registered region of this allocator (a heap or composite buffer, another
     * allocator's buffer, or a region whose registration failed). For the data path: a send or
     * receive of {@code [memoryAddress, memoryAddress + readableBytes)} may pass the handle with
     * {@code UCP_OP_ATTR_FIELD_MEMH}; the handle stays valid while {@code buf} is not released.
     *
     * <p>Slices, duplicates, leak-detection and swapped (little-endian) wrappers are looked through
     * with {@link ByteBuf#unwrap()}; other buffers with a memory address are found by address.
     * Allocates nothing.
     */
    long memoryHandle(ByteBuf buf) {
        if (!buf.hasMemoryAddress()) {
            return 0;
        }
        UcxByteBuf ucxBuf = unwrapUcxByteBuf(buf);
        if (ucxBuf != null && ucxBuf.alloc() == this) {
            return memoryHandleOf(ucxBuf, buf);
        }
        return memoryHandle(buf.memoryAddress(), buf.capacity());
    }

    /**
     * Like {@link #memoryHandle(ByteBuf)} for a buffer of any {@code UcxByteBufAllocator}, when the
     * caller does not know which one made it; 0 for any other buffer. Allocates nothing. The transport
     * calls it through {@link UcxMemoryRegistration#memoryHandleOf(ByteBuf)}.
     */
    static long memoryHandleOf(ByteBuf buf) {
        if (!buf.hasMemoryAddress()) {
            return 0;
        }
        UcxByteBuf ucxBuf = unwrapUcxByteBuf(buf);
        return ucxBuf == null ? 0 : memoryHandleOf(ucxBuf, buf);
    }

    private static long memoryHandleOf(UcxByteBuf ucxBuf, ByteBuf view) {
        UcxMemoryRegion region = ucxBuf.region();
        return region != null && region.contains(view.memoryAddress(), view.capacity()) ? region.memoryHandle() : 0;
    }

    private static UcxByteBuf unwrapUcxByteBuf(ByteBuf buf) {
        for (ByteBuf b = buf; b != null; b = b.unwrap()) {
            if (b instanceof UcxByteBuf) {
                return (UcxByteBuf) b;
            }
        }
        return null;
    }

    /** The {@code ucp_mem_h} of the registered region of this allocator holding the given bytes, or 0. */
    long memoryHandle(long address, long length) {
        UcxMemoryRegion region = regions.find(address, length);
        return region == null ? 0 : region.memoryHandle();
    }

    private UcxByteBuf newBufferObject(UcxThreadCache cache) {
        UcxByteBuf buf = cache != null ? cache.pollBuffer(buffers) : buffers.takeOne();
        return buf != null ? buf : new UcxByteBuf();
    }

    /** Takes back the object of a released buffer for reuse; {@code cache} is the allocating thread's. */
    void recycle(UcxByteBuf buf, UcxThreadCache cache) {
        if (cache != null && cache.owner == Thread.currentThread()) {
            cache.offerBuffer(buf, buffers);
        } else {
            buffers.give(buf);
        }
    }

    /** Gives {@code buf} a block of at least {@code capacity} bytes. */
    void allocateBlock(UcxByteBuf buf, int capacity) {
        allocateBlock(buf, capacity, threadCache());
    }

    /** Gives {@code buf} a block of at least {@code capacity} bytes; {@code cache} is the calling thread's. */
    private void allocateBlock(UcxByteBuf buf, int capacity, UcxThreadCache cache) {
        if (closed) {
            throw new IllegalStateException("the UcxByteBufAllocator is closed");
        }
        if (capacity > UcxSizeClasses.MAX_POOLED) {
            UcxMemoryRegion region = regions.mapDedicated(capacity);
            int blockSize = (int) Math.min(region.length(), Integer.MAX_VALUE);
            buf.attach(region, region.address(), 0, -1, blockSize, cache, capacity);
            activeBytes.add(blockSize);
            return;
        }
        int sizeClass = UcxSizeClasses.indexOf(capacity);
        long block = cache != null ? cache.poll(sizeClass, capacity) : pools[sizeClass].takeOne(capacity);
        UcxMemoryRegion region = regions.pooledRegion(UcxRegions.regionIndex(block));
        int blockSize = UcxSizeClasses.sizeOf(sizeClass);
        buf.attach(region, region.address() + UcxRegions.offset(block), block, sizeClass, blockSize, cache, capacity);
        activeBytes.add(blockSize);
    }

    /** Returns a block to the pools (or unmaps a dedicated region); the one place a block is freed. */
    void free(UcxMemoryRegion region, long block, int sizeClass, int blockSize, UcxThreadCache cache) {
        activeBytes.add(-blockSize);
        if (sizeClass < 0) {
            regions.unmapDedicated(region);
        } else if (cache == null || cache.owner != Thread.currentThread() || !cache.offer(sizeClass, block)) {
            pools[sizeClass].give(block);
        }
    }

    /**
     * Unmaps every pooled region. Only for allocators made for a bounded purpose (tests, a
     * benchmark): every buffer must have been released, and no other thread may use the allocator
     * any more. {@link #DEFAULT} is never closed.
     *
     * @throws IllegalStateException when buffers of this allocator are still live
     */
    void close() {
        long live = activeBytes.sum();
        if (live != 0) {
            throw new IllegalStateException("cannot close a UcxByteBufAllocator while its buffers hold " + live
                    + " bytes; release them first");
        }
        closed = true;
        if (threadCaches != null) {
            threadCaches.remove();
        }
        regions.close();
    }

    UcxAllocatorConfig config() {
        return config;
    }

    UcxRegions regions() {
        return regions;
    }

    UcxBlockPool pool(int sizeClass) {
        return pools[sizeClass];
    }

    UcxBufferPool bufferPool() {
        return buffers;
    }

    /** The calling thread's cache, or null when caches are off. */
    UcxThreadCache threadCache() {
        return threadCaches == null ? null : threadCaches.get();
    }

    long activeBytes() {
        return activeBytes.sum();
    }

    long heapBytes() {
        return heapBytes.sum();
    }

    @Override
    public String toString() {
        return "UcxByteBufAllocator(" + metric + ')';
    }

    /** Netty's heap buffer, counted in {@link #heapBytes}. */
    private final class CountedHeapByteBuf extends UnpooledHeapByteBuf {
        CountedHeapByteBuf(int initialCapacity, int maxCapacity) {
            super(UcxByteBufAllocator.this, initialCapacity, maxCapacity);
        }

        @Override
        protected byte[] allocateArray(int initialCapacity) {
            byte[] array = super.allocateArray(initialCapacity);
            heapBytes.add(array.length);
            return array;
        }

        @Override
        protected void freeArray(byte[] array) {
            heapBytes.add(-array.length);
            super.freeArray(array);
        }
    }
}
