/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One mapping made by {@code ucx_memory.c} (through {@link UcxNative#memoryMap}): page-aligned
 * anonymous memory registered with {@code ucp_mem_map}. The region owns the mapping and the registration;
 * {@link #unmap()} is the one place both are freed, and runs at most once. The registered-memory allocator
 * ({@code io.github.nettyucx.buffer}) carves its buffers out of regions.
 *
 * <p>{@link #memoryHandle()} is 0 when registration failed: the memory is then ordinary memory,
 * still usable for buffers, that UCX registers (or copies) per transfer as it would any other.
 */
public final class UcxMemoryRegion {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxMemoryRegion.class);

    private final long address;
    private final long length;
    private final long memh;
    private final int registrationStatus;
    /** A view of the whole region (up to 2 GiB) that buffers duplicate for their NIO views. */
    private final ByteBuffer view;
    private boolean unmapped;

    private UcxMemoryRegion(long address, long length, long memh, int registrationStatus) {
        this.address = address;
        this.length = length;
        this.memh = memh;
        this.registrationStatus = registrationStatus;
        view = UcxNative.directBuffer(address, (int) Math.min(length, Integer.MAX_VALUE));
    }

    /** Maps and registers {@code length} bytes (a multiple of the page size). */
    public static UcxMemoryRegion map(long length) throws IOException {
        long[] out = new long[UcxNative.MAP_WORDS];
        UcxNative.memoryMap(length, out);
        long address = out[UcxNative.MAP_ADDRESS];
        long memh = out[UcxNative.MAP_MEMH];
        try {
            return new UcxMemoryRegion(address, length, memh, (int) out[UcxNative.MAP_STATUS]);
        } catch (Throwable t) {
            UcxNative.memoryUnmap(address, length, memh);
            throw t;
        }
    }

    public long address() {
        return address;
    }

    public long length() {
        return length;
    }

    /** The {@code ucp_mem_h} of the region, or 0 when the memory is not registered. */
    public long memoryHandle() {
        return memh;
    }

    public boolean isRegistered() {
        return memh != 0;
    }

    /** Why registration failed, as UCX says it; only meaningful when {@link #isRegistered()} is false. */
    public String registrationFailure() {
        return UcxNative.statusString(registrationStatus);
    }

    public boolean contains(long start, long bytes) {
        return start >= address && bytes >= 0 && start - address <= length - bytes;
    }

    /**
     * The view of the whole region that every buffer in it reads and writes through, with absolute indexes only,
     * so that it can be shared; big-endian.
     */
    public ByteBuffer memory() {
        return view;
    }

    /** A new view of the whole region, positioned at 0 (callers set position and limit). */
    public ByteBuffer newView() {
        return view.duplicate();
    }

    /** Deregisters and unmaps the region. No buffer may use its memory afterwards. */
    public synchronized void unmap() {
        if (unmapped) {
            return;
        }
        unmapped = true;
        int result = UcxNative.memoryUnmap(address, length, memh);
        if (result != 0) {
            // The mapping is gone in any case; a failed deregistration only leaks UCX bookkeeping.
            logger.warn("unmapping a {}-byte memory region at 0x{} reported {}", length,
                    Long.toHexString(address), result < 0 ? UcxNative.statusString(result) : "errno " + result);
        }
    }

    @Override
    public String toString() {
        return "UcxMemoryRegion(0x" + Long.toHexString(address) + ", " + length + " bytes"
                + (memh != 0 ? ", registered)" : ", not registered)");
    }
}
