/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.github.nettyucx.jni.UcxMemoryRegion;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory regions of one {@link UcxByteBufAllocator} and the limit on their total size.
 *
 * <p>Pooled regions are mapped {@link UcxAllocatorConfig#regionSize} bytes at a time, handed out as
 * {@link UcxAllocatorConfig#SLAB_SIZE} slabs to the size classes, and kept until {@link #close()}.
 * A slab is named by a <em>block id</em>: the region's index in {@link #pooled} in the high 32 bits
 * and the offset in the region in the low 32 bits, so pools and caches hold plain longs (no object
 * per block) and find the region with one array read.
 *
 * <p>Buffers larger than a slab get a dedicated region each, unmapped when the buffer is released.
 *
 * <p>{@link #find(long, long)} maps an address back to its region (pooled or dedicated) for callers
 * that hold only an address; it reads a copy-on-write array sorted by address, so lookups take no
 * lock and allocate nothing.
 */
final class UcxRegions {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxRegions.class);
    private static final UcxMemoryRegion[] NO_REGIONS = new UcxMemoryRegion[0];
    private static final long PAGE_SIZE = 4096;

    private final UcxAllocatorConfig config;
    private final AtomicLong mappedBytes = new AtomicLong();
    private final AtomicLong unregisteredBytes = new AtomicLong();
    private volatile UcxMemoryRegion[] pooled = NO_REGIONS;
    private volatile UcxMemoryRegion[] byAddress = NO_REGIONS;
    // Guarded by this.
    private long nextSlab;
    private long slabsEnd;
    private boolean warnedUnregistered;
    private boolean closed;

    UcxRegions(UcxAllocatorConfig config) {
        this.config = config;
    }

    static int regionIndex(long block) {
        return (int) (block >>> 32);
    }

    static int offset(long block) {
        return (int) block;
    }

    UcxMemoryRegion pooledRegion(int index) {
        return pooled[index];
    }

    /** The block id of a fresh slab, mapping a new region when the last one is used up. */
    synchronized long takeSlab(int requestedCapacity) {
        if (nextSlab == slabsEnd) {
            UcxMemoryRegion region = map(config.regionSize, requestedCapacity);
            long index = pooled.length;
            UcxMemoryRegion[] grown = Arrays.copyOf(pooled, pooled.length + 1);
            grown[grown.length - 1] = region;
            pooled = grown;
            nextSlab = index << 32;
            slabsEnd = nextSlab + region.length();
        }
        long slab = nextSlab;
        nextSlab += UcxAllocatorConfig.SLAB_SIZE;
        return slab;
    }

    /** Maps a region of its own for a buffer of {@code capacity} bytes (rounded up to pages). */
    UcxMemoryRegion mapDedicated(int capacity) {
        long length = (capacity + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
        return map(Math.max(length, PAGE_SIZE), capacity);
    }

    void unmapDedicated(UcxMemoryRegion region) {
        synchronized (this) {
            byAddress = without(byAddress, region);
        }
        release(region);
    }

    /** The region holding {@code [address, address + length)}, or null. */
    UcxMemoryRegion find(long address, long length) {
        UcxMemoryRegion[] regions = byAddress;
        int low = 0;
        int high = regions.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            UcxMemoryRegion region = regions[mid];
            if (region.address() + region.length() <= address) {
                low = mid + 1;
            } else if (region.address() > address) {
                high = mid - 1;
            } else {
                return region.contains(address, length) ? region : null;
            }
        }
        return null;
    }

    long mappedBytes() {
        return mappedBytes.get();
    }

    long unregisteredBytes() {
        return unregisteredBytes.get();
    }

    int pooledRegionCount() {
        return pooled.length;
    }

    /** Unmaps the pooled regions; the caller makes sure no buffer uses them any more. */
    void close() {
        UcxMemoryRegion[] regions;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            regions = pooled;
            for (UcxMemoryRegion region : regions) {
                byAddress = without(byAddress, region);
            }
            nextSlab = slabsEnd = 0;
        }
        for (UcxMemoryRegion region : regions) {
            release(region);
        }
    }

    private UcxMemoryRegion map(long length, int requestedCapacity) {
        reserve(length, requestedCapacity);
        UcxMemoryRegion region;
        try {
            region = UcxMemoryRegion.map(length);
        } catch (IOException | RuntimeException e) {
            mappedBytes.addAndGet(-length);
            throw new UcxOutOfMemoryError("failed to allocate " + requestedCapacity
                    + " byte(s) of UCX-registered memory: mapping a " + length + "-byte region failed (" + e.getMessage()
                    + "; mapped: " + (mappedBytes.get()) + ", max: " + config.maxMemory + "): the operating system "
                    + "refused more memory (the machine's memory, or the process's address-space limit, ulimit -v); "
                    + "set -D" + UcxAllocatorConfig.MAX_MEMORY_PROPERTY + "=<bytes> below what the process may map, "
                    + "or release buffers sooner", e);
        } catch (Throwable t) {
            // An Error (say, no heap for the region's view) must not keep the reservation for ever.
            mappedBytes.addAndGet(-length);
            throw t;
        }
        synchronized (this) {
            if (closed) {
                mappedBytes.addAndGet(-length);
                region.unmap();
                throw new IllegalStateException("the UcxByteBufAllocator is closed");
            }
            byAddress = with(byAddress, region);
            if (!region.isRegistered()) {
                unregisteredBytes.addAndGet(length);
                warnUnregistered(region);
            }
        }
        return region;
    }

    private void reserve(long length, int requestedCapacity) {
        for (;;) {
            long used = mappedBytes.get();
            long next = used + length;
            if (next > config.maxMemory || next < 0) {
                throw new UcxOutOfMemoryError("failed to allocate " + requestedCapacity
                        + " byte(s) of UCX-registered memory: a new " + length + "-byte region would exceed the limit (mapped: "
                        + used + ", max: " + config.maxMemory + "); raise -D" + UcxAllocatorConfig.MAX_MEMORY_PROPERTY
                        + "=<bytes> or release buffers sooner");
            }
            if (mappedBytes.compareAndSet(used, next)) {
                return;
            }
        }
    }

    private void release(UcxMemoryRegion region) {
        if (!region.isRegistered()) {
            unregisteredBytes.addAndGet(-region.length());
        }
        region.unmap();
        mappedBytes.addAndGet(-region.length());
    }

    private void warnUnregistered(UcxMemoryRegion region) {
        if (warnedUnregistered) {
            return;
        }
        warnedUnregistered = true;
        logger.warn("ucp_mem_map failed ({}) for {}: buffers from it still work, but UCX registers them per transfer "
                + "instead of using the region's memory handle. On RDMA hosts this is usually the locked-memory limit: "
                + "raise it (ulimit -l unlimited, or LimitMEMLOCK=infinity for a systemd service). Logged once.",
                region.registrationFailure(), region);
    }

    private static UcxMemoryRegion[] with(UcxMemoryRegion[] regions, UcxMemoryRegion region) {
        int at = 0;
        while (at < regions.length && regions[at].address() < region.address()) {
            at++;
        }
        UcxMemoryRegion[] result = new UcxMemoryRegion[regions.length + 1];
        System.arraycopy(regions, 0, result, 0, at);
        result[at] = region;
        System.arraycopy(regions, at, result, at + 1, regions.length - at);
        return result;
    }

    private static UcxMemoryRegion[] without(UcxMemoryRegion[] regions, UcxMemoryRegion region) {
        for (int i = 0; i < regions.length; i++) {
            if (regions[i] == region) {
                UcxMemoryRegion[] result = new UcxMemoryRegion[regions.length - 1];
                System.arraycopy(regions, 0, result, 0, i);
                System.arraycopy(regions, i + 1, result, i, regions.length - i - 1);
                return result;
            }
        }
        return regions;
    }
}
