/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * How Java reads, writes and copies native memory without {@code sun.misc.Unsafe}, which newer JDKs hide (Netty
 * turns it off by default from Java 25): memory the native side shares with Java (connection states, the ready
 * list, I/O vectors, send slots) is seen through direct {@link ByteBuffer}s, and bytes move between buffers with
 * the JDK's absolute bulk copies, which allocate nothing.
 */
public final class UcxBytes {
    private UcxBytes() {
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
