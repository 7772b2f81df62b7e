/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * <strong>Internal:</strong> the bridge between this allocator and the UCX transport
 * ({@code io.github.nettyucx.transport}). It is public only because the two live in different packages;
 * it is not for users and may change or go away in any release.
 *
 * <p>It carries exactly what each side needs from the other, so that everything else in both packages
 * stays package-private:
 * <ul>
 *   <li>to the transport: the allocator its channels post receives into ({@link #receiveAllocator()}) and the
 *       UCX memory handle of a buffer ({@link #memoryHandleOf(ByteBuf)});</li>
 *   <li>from the transport: the native calls that map and register memory ({@link NativeMemory}). They live in
 *       the transport's JNI library, next to the UCP context they register with, and the transport
 *       {@linkplain #install installs} them when that library has loaded.</li>
 * </ul>
 *
 * <p>The class has no static state other than the installed calls, and initializing it initializes nothing
 * else: the transport installs them while its own class initializer runs, which may itself have been set off
 * by the first {@link UcxByteBufAllocator}.
 */
public final class UcxMemoryRegistration {
    private static volatile NativeMemory nativeMemory;

    private UcxMemoryRegistration() {
    }

    /**
     * The native memory calls of the transport's JNI library ({@code ucx_memory.c}), which the allocator's
     * memory regions are made and freed with.
     */
    public interface NativeMemory {
        /** Index in {@link #map}'s {@code out} of the address. */
        int ADDRESS = 0;
        /** Index in {@link #map}'s {@code out} of the memory handle. */
        int HANDLE = 1;
        /** Index in {@link #map}'s {@code out} of the registration's status. */
        int STATUS = 2;

        /**
         * Maps {@code length} bytes (a multiple of the page size) and registers them with {@code ucp_mem_map};
         * fills {@code out} at {@link #ADDRESS}, {@link #HANDLE} and {@link #STATUS} with the address, the
         * memory handle (0 when registration failed) and the {@code ucs_status_t} of the registration.
         *
         * @throws IOException when the memory cannot be mapped
         */
        void map(long length, long[] out) throws IOException;

        /**
         * Deregisters (when {@code memoryHandle} is not 0) and unmaps memory from {@link #map}. Returns 0, a
         * negative {@code ucs_status_t} of {@code ucp_mem_unmap}, or a positive {@code errno} of {@code munmap}.
         */
        int unmap(long address, long length, long memoryHandle);

        /** UCX's description of a {@code ucs_status_t}. */
        String statusString(int status);

        /** A direct {@link ByteBuffer} over {@code length} bytes at {@code address}, which it does not own. */
        ByteBuffer directBuffer(long address, int length);
    }

    /**
     * Called by the transport once its native library has loaded and its UCP context exists.
     *
     * @throws IllegalStateException when native calls were installed already
     */
    public static synchronized void install(NativeMemory calls) {
        if (nativeMemory != null) {
            throw new IllegalStateException("the native memory calls are installed already");
        }
        nativeMemory = calls;
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

    /**
     * The calls the transport installed. The allocator asks for them only after
     * {@code Ucx.ensureAvailability()} has returned, which loads the transport and so installs them.
     */
    static NativeMemory nativeMemory() {
        NativeMemory calls = nativeMemory;
        if (calls == null) {
            throw new IllegalStateException("the UCX transport has not installed its native memory calls");
        }
        return calls;
    }
}
