/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.buffer.UcxMemoryRegistration;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The memory calls of {@link UcxNative} that the registered-memory allocator ({@code io.github.nettyucx.buffer})
 * needs, and nothing more. {@link Ucx} installs them once the native library has loaded; {@code UcxNative}
 * stays package-private because its methods are registered for that class by {@code JNI_OnLoad}.
 */
final class UcxNativeMemory implements UcxMemoryRegistration.NativeMemory {
    @Override
    public void map(long length, long[] out) throws IOException {
        long[] words = new long[UcxNative.MAP_WORDS];
        UcxNative.memoryMap(length, words);
        out[ADDRESS] = words[UcxNative.MAP_ADDRESS];
        out[HANDLE] = words[UcxNative.MAP_MEMH];
        out[STATUS] = words[UcxNative.MAP_STATUS];
    }

    @Override
    public int unmap(long address, long length, long memoryHandle) {
        return UcxNative.memoryUnmap(address, length, memoryHandle);
    }

    @Override
    public String statusString(int status) {
        return UcxNative.statusString(status);
    }

    @Override
    public ByteBuffer directBuffer(long address, int length) {
        return UcxNative.directBuffer(address, length);
    }
}
