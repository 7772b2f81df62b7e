/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * How Java reads, writes and copies native memory. Memory the native side shares with Java (connection states, the
 * ready list, I/O vectors, send slots) is seen through direct {@link ByteBuffer}s, which work on every JDK. Where
 * Netty uses {@code sun.misc.Unsafe} ({@link #UNSAFE}: by default up to Java 24; Netty turns it off from Java 25),
 * the words and copies of the hot paths go through it instead, at the address behind the buffer, as Netty's own
 * direct buffers do: less code for the JIT and less work per access (docs/benchmarks/jdk25). Nothing here
 * allocates.
 */
public final class UcxBytes {
    /** Whether Netty reaches {@code sun.misc.Unsafe} here; when not, every access goes through the buffers. */
    public static final boolean UNSAFE = PlatformDependent.hasUnsafe();

    private UcxBytes() {
    }

    /** The word at byte {@code offset} of {@code words}, a view of the native memory at {@code address}. */
    public static int getInt(ByteBuffer words, long address, int offset) {
        return UNSAFE ? PlatformDependent.getInt(address + offset) : words.getInt(offset);
    }

    /** Writes a word at byte {@code offset} of {@code words}, a view of the native memory at {@code address}. */
    public static void putInt(ByteBuffer words, long address, int offset, int value) {
        if (UNSAFE) {
            PlatformDependent.putInt(address + offset, value);
        } else {
            words.putInt(offset, value);
        }
    }

    /** As {@link #getInt}, for a long word. */
    public static long getLong(ByteBuffer words, long address, int offset) {
        return UNSAFE ? PlatformDependent.getLong(address + offset) : words.getLong(offset);
    }

    /** As {@link #putInt}, for a long word. */
    public static void putLong(ByteBuffer words, long address, int offset, long value) {
        if (UNSAFE) {
            PlatformDependent.putLong(address + offset, value);
        } else {
            words.putLong(offset, value);
        }
    }

    /**
     * As {@link #copy(ByteBuf, int, ByteBuffer, int, int)}, into {@code dst}, a view of the native memory at
     * {@code dstAddress}: with {@link #UNSAFE}, straight from {@code src}'s memory or array.
     */
    public static void copy(ByteBuf src, int srcIndex, ByteBuffer dst, long dstAddress, int to, int n) {
        if (UNSAFE && src.hasMemoryAddress()) {
            PlatformDependent.copyMemory(src.memoryAddress() + srcIndex, dstAddress + to, n);
        } else if (UNSAFE && src.hasArray()) {
            PlatformDependent.copyMemory(src.array(), src.arrayOffset() + srcIndex, dstAddress + to, n);
        } else {
            copy(src, srcIndex, dst, to, n);
        }
    }

    /**
     * Copies {@code n} bytes at {@code srcIndex} of {@code src} to {@code dst} at {@code dstIndex}, moving no index:
     * with {@link #UNSAFE}, between their memory or arrays; else through {@code src}'s own view.
     */
    public static void copy(ByteBuf src, int srcIndex, ByteBuf dst, int dstIndex, int n) {
        if (UNSAFE && src.hasMemoryAddress() && dst.hasMemoryAddress()) {
            PlatformDependent.copyMemory(src.memoryAddress() + srcIndex, dst.memoryAddress() + dstIndex, n);
        } else if (UNSAFE && src.hasMemoryAddress() && dst.hasArray()) {
            PlatformDependent.copyMemory(src.memoryAddress() + srcIndex, dst.array(), dst.arrayOffset() + dstIndex, n);
        } else {
            ByteBuffer from = src.internalNioBuffer(srcIndex, n);
            copy(from, from.position(), dst, dstIndex, n);
        }
    }

    /** A view of {@code bytes} of native memory at {@code address} holding words in the machine's order. */
    public static ByteBuffer words(long address, int bytes) {
        return UcxNative.directBuffer(address, bytes).order(ByteOrder.nativeOrder());
    }

    /** The address of a direct buffer's memory (of its index 0, whatever its position). */
    public static long address(ByteBuffer direct) {
        return UcxNative.bufferAddress(direct);
    }

    /**
     * Copies {@code n} bytes at {@code srcIndex} of {@code src} to {@code dst} at {@code to}, moving no index. A
     * buffer over one block of memory is read through its own view ({@link ByteBuf#internalNioBuffer}, as Netty's
     * transports read the buffers they write), so nothing is allocated.
     */
    public static void copy(ByteBuf src, int srcIndex, ByteBuffer dst, int to, int n) {
        if (src.hasArray()) {
            dst.put(to, src.array(), src.arrayOffset() + srcIndex, n);
        } else if (src.nioBufferCount() == 1) {
            ByteBuffer from = src.internalNioBuffer(srcIndex, n);
            dst.put(to, from, from.position(), n);
        } else {
            src.getBytes(srcIndex, dst.duplicate().limit(to + n).position(to));
        }
    }

    /** Copies {@code n} bytes at {@code from} of {@code src} to {@code dst} at {@code dstIndex}, moving no index. */
    public static void copy(ByteBuffer src, int from, ByteBuf dst, int dstIndex, int n) {
        if (dst.hasArray()) {
            src.get(from, dst.array(), dst.arrayOffset() + dstIndex, n);
        } else if (dst.nioBufferCount() == 1) {
            ByteBuffer to = dst.internalNioBuffer(dstIndex, n);
            to.put(to.position(), src, from, n);
        } else {
            dst.setBytes(dstIndex, src.duplicate().limit(from + n).position(from));
        }
    }
}
