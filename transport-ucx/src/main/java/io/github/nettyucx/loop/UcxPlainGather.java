/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxBytes;
import io.github.nettyucx.jni.UcxFd;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Lays out the flushed buffers of a plain TCP channel as one I/O vector for {@link UcxFd#writev}: a
 * buffer with a memory address is an entry over its own memory; the bytes of a heap buffer are copied into a
 * scratch area first, as the kernel can only take native memory. One per event loop ({@link UcxWorker}), shared by
 * its plain connections: a write lays out and sends before the next one starts. The scratch area also takes the
 * bytes a read of the socket brings for a heap buffer.
 */
public final class UcxPlainGather implements ChannelOutboundBuffer.MessageProcessor {
    /** Entries of one sendmsg: Linux's IOV_MAX. */
    private static final int MAX_ENTRIES = 1024;
    /** Bytes one sendmsg offers at most: more than a socket buffer takes at once. */
    private static final long MAX_BYTES = 4L << 20;
    private static final int SCRATCH_BYTES = 64 * 1024;

    private final ByteBuffer iov = ByteBuffer.allocateDirect(MAX_ENTRIES * UcxNative.IOV_ENTRY_BYTES)
            .order(ByteOrder.nativeOrder());
    private final long iovAddress = UcxBytes.address(iov);
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(SCRATCH_BYTES);
    private final long scratchAddress = UcxBytes.address(scratch);
    private int entries;
    private long bytes;
    private int scratchUsed;

    /** Starts a new I/O vector. */
    public void reset() {
        entries = 0;
        bytes = 0;
        scratchUsed = 0;
    }

    public int entries() {
        return entries;
    }

    public long bytes() {
        return bytes;
    }

    public long iovAddress() {
        return iovAddress;
    }

    /** Native memory for the bytes of one read into a heap buffer; not kept across calls. */
    public long scratchAddress() {
        return scratchAddress;
    }

    public int scratchBytes() {
        return SCRATCH_BYTES;
    }

    /** The scratch area's first {@code length} bytes as a buffer (the same one each time). */
    public ByteBuffer scratch(int length) {
        scratch.clear().limit(length);
        return scratch;
    }

    /** Copies the first {@code n} bytes of the scratch area to {@code dst} at {@code dstIndex}. */
    public void copyFromScratch(ByteBuf dst, int dstIndex, int n) {
        UcxBytes.copy(scratch.clear(), 0, dst, dstIndex, n);
    }

    @Override
    public boolean processMessage(Object msg) {
        if (!(msg instanceof ByteBuf)) {
            return false;
        }
        ByteBuf buf = (ByteBuf) msg;
        int readable = buf.readableBytes();
        if (readable == 0) {
            return true;
        }
        if (buf.hasMemoryAddress()) {
            return add(buf.memoryAddress() + buf.readerIndex(), readable);
        }
        if (buf.hasArray()) {
            return copy(buf.array(), buf.arrayOffset() + buf.readerIndex(), readable);
        }
        for (ByteBuffer part : buf.nioBuffers(buf.readerIndex(), readable)) {
            boolean more = part.isDirect()
                    ? add(UcxBytes.address(part) + part.position(), part.remaining()) : copy(part);
            if (!more) {
                return false;
            }
        }
        return true;
    }

    /** Copies {@code length} bytes of {@code array} into the scratch area, as much as fits, and adds them. */
    private boolean copy(byte[] array, int offset, int length) {
        int n = Math.min(length, SCRATCH_BYTES - scratchUsed);
        if (n == 0) {
            return false;
        }
        long target = scratchAddress + scratchUsed;
        // Absolute copies are bounded by the limit, which the last user of scratch() may have left short.
        scratch.clear().put(scratchUsed, array, offset, n);
        scratchUsed += n;
        // Copied only in part: what follows must wait for the rest.
        return add(target, n) && n == length;
    }

    /** As {@link #copy(byte[], int, int)}, for a heap part without an accessible array (a read-only one). */
    private boolean copy(ByteBuffer part) {
        if (part.hasArray()) {
            return copy(part.array(), part.arrayOffset() + part.position(), part.remaining());
        }
        int length = part.remaining();
        int n = Math.min(length, SCRATCH_BYTES - scratchUsed);
        if (n == 0) {
            return false;
        }
        long target = scratchAddress + scratchUsed;
        scratch.clear().position(scratchUsed);
        scratch.put(part.duplicate().limit(part.position() + n));
        scratchUsed += n;
        return add(target, n) && n == length;
    }

    /** Adds an entry; false when the vector is full after it. */
    private boolean add(long address, int length) {
        if (entries == MAX_ENTRIES || bytes >= MAX_BYTES) {
            return false;
        }
        int entry = entries * UcxNative.IOV_ENTRY_BYTES;
        iov.putLong(entry + UcxNative.IOV_BUFFER_OFFSET, address);
        iov.putLong(entry + UcxNative.IOV_LENGTH_OFFSET, length);
        entries++;
        bytes += length;
        return entries < MAX_ENTRIES && bytes < MAX_BYTES;
    }
}
