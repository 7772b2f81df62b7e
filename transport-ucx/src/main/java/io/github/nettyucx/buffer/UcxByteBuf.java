/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.github.nettyucx.jni.UcxBytes;
import io.github.nettyucx.jni.UcxMemoryRegion;
import io.netty.buffer.AbstractReferenceCountedByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * A direct buffer over one block of a {@link UcxMemoryRegion}, made by {@link UcxByteBufAllocator}.
 *
 * <p>Instances are reused: releasing the last reference gives the block back to the allocator and
 * the object to a pool of buffer objects ({@link UcxThreadCache}, {@link UcxBufferPool}), so
 * allocate/release in steady state creates no Java objects, on any thread. The buffer is
 * big-endian; {@code order(LITTLE_ENDIAN)} and the {@code ...LE} methods read and write the same
 * memory the other way round.
 *
 * <p>{@link #capacity(int)} grows in place up to the block's size ({@link #maxFastWritableBytes()}
 * tells how far), and moves to a larger block (a copy) beyond it; shrinking below half the block
 * moves to a smaller one so a shrunk buffer does not pin a large block.
 */
final class UcxByteBuf extends AbstractReferenceCountedByteBuf {
    private UcxByteBufAllocator allocator;
    private UcxMemoryRegion region;
    private long address;
    private int length;
    /** The block's id in its pooled region (see {@link UcxRegions}); unused for a dedicated region. */
    private long block;
    /** The size class of the block, or -1 when the buffer has a dedicated region. */
    private int sizeClass;
    private int blockSize;
    /** The cache of the thread that allocated the block; only that thread returns the block there. */
    private UcxThreadCache cache;
    /** The region's view, which every accessor reads and writes through at {@link #base}. */
    private ByteBuffer memory;
    /** Where the block starts in {@link #memory}. */
    private int base;
    private ByteBuffer tmpNioBuf;
    private UcxMemoryRegion tmpNioBufRegion;

    UcxByteBuf() {
        super(0);
    }

    /** Makes a new or released object a live buffer of the allocator, still without memory. */
    UcxByteBuf reset(UcxByteBufAllocator allocator, int maxCapacity) {
        this.allocator = allocator;
        region = null;
        blockSize = 0;
        length = 0;
        maxCapacity(maxCapacity);
        resetRefCnt();
        setIndex(0, 0);
        markReaderIndex();
        markWriterIndex();
        return this;
    }

    /** Points the buffer at a block; called by the allocator on allocation and on reallocation. */
    void attach(UcxMemoryRegion region, long address, long block, int sizeClass, int blockSize,
                UcxThreadCache cache, int capacity) {
        this.region = region;
        this.address = address;
        memory = region.memory();
        base = (int) (address - region.address());
        this.block = block;
        this.sizeClass = sizeClass;
        this.blockSize = blockSize;
        this.cache = cache;
        length = capacity;
    }

    UcxMemoryRegion region() {
        return region;
    }

    int blockSize() {
        return blockSize;
    }

    @Override
    protected void deallocate() {
        UcxMemoryRegion oldRegion = region;
        UcxThreadCache oldCache = cache;
        UcxByteBufAllocator oldAllocator = allocator;
        region = null;
        memory = null;
        tmpNioBuf = null;
        tmpNioBufRegion = null;
        cache = null;
        allocator = null;
        if (oldRegion != null) {
            // Null when the allocation failed before a block was attached.
            oldAllocator.free(oldRegion, block, sizeClass, blockSize, oldCache);
        }
        oldAllocator.recycle(this, oldCache);
    }

    @Override
    public int capacity() {
        return length;
    }

    @Override
    public int maxFastWritableBytes() {
        return Math.min(blockSize, maxCapacity()) - writerIndex();
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        if (newCapacity == length) {
            ensureAccessible();
            return this;
        }
        checkNewCapacity(newCapacity);
        boolean fitsBlock = newCapacity > length ? newCapacity <= blockSize : newCapacity > blockSize >>> 1;
        if (!fitsBlock) {
            moveToNewBlock(newCapacity);
        }
        length = newCapacity;
        trimIndicesToCapacity(newCapacity);
        return this;
    }

    private void moveToNewBlock(int newCapacity) {
        UcxMemoryRegion oldRegion = region;
        long oldBlock = block;
        int oldSizeClass = sizeClass;
        int oldBlockSize = blockSize;
        UcxThreadCache oldCache = cache;
        int oldLength = length;
        ByteBuffer oldMemory = memory;
        int oldBase = base;
        allocator.allocateBlock(this, newCapacity);
        memory.put(base, oldMemory, oldBase, Math.min(oldLength, newCapacity));
        allocator.free(oldRegion, oldBlock, oldSizeClass, oldBlockSize, oldCache);
    }

    @Override
    public ByteBufAllocator alloc() {
        return allocator;
    }

    @Deprecated
    @Override
    public ByteOrder order() {
        return ByteOrder.BIG_ENDIAN;
    }

    @Override
    public ByteBuf unwrap() {
        return null;
    }

    @Override
    public boolean isDirect() {
        return true;
    }

    @Override
    public boolean isContiguous() {
        return true;
    }

    @Override
    public boolean hasArray() {
        return false;
    }

    @Override
    public byte[] array() {
        throw new UnsupportedOperationException("direct buffer");
    }

    @Override
    public int arrayOffset() {
        throw new UnsupportedOperationException("direct buffer");
    }

    @Override
    public boolean hasMemoryAddress() {
        return true;
    }

    @Override
    public long memoryAddress() {
        ensureAccessible();
        return address;
    }

    // The accessors go through sun.misc.Unsafe where Netty uses it (UcxBytes.UNSAFE), at the block's address, as
    // Netty's own direct buffers do; elsewhere through the region's ByteBuffer (big-endian, as a ByteBuf is).

    private static short bigEndian(short value) {
        return PlatformDependent.BIG_ENDIAN_NATIVE_ORDER ? value : Short.reverseBytes(value);
    }

    private static int bigEndian(int value) {
        return PlatformDependent.BIG_ENDIAN_NATIVE_ORDER ? value : Integer.reverseBytes(value);
    }

    private static long bigEndian(long value) {
        return PlatformDependent.BIG_ENDIAN_NATIVE_ORDER ? value : Long.reverseBytes(value);
    }

    @Override
    protected byte _getByte(int index) {
        return UcxBytes.UNSAFE ? PlatformDependent.getByte(address + index) : memory.get(base + index);
    }

    @Override
    protected short _getShort(int index) {
        return UcxBytes.UNSAFE ? bigEndian(PlatformDependent.getShort(address + index)) : memory.getShort(base + index);
    }

    @Override
    protected short _getShortLE(int index) {
        return Short.reverseBytes(_getShort(index));
    }

    @Override
    protected int _getUnsignedMedium(int index) {
        return (_getByte(index) & 0xff) << 16 | _getShort(index + 1) & 0xffff;
    }

    @Override
    protected int _getUnsignedMediumLE(int index) {
        return _getByte(index) & 0xff | (_getShortLE(index + 1) & 0xffff) << 8;
    }

    @Override
    protected int _getInt(int index) {
        return UcxBytes.UNSAFE ? bigEndian(PlatformDependent.getInt(address + index)) : memory.getInt(base + index);
    }

    @Override
    protected int _getIntLE(int index) {
        return Integer.reverseBytes(_getInt(index));
    }

    @Override
    protected long _getLong(int index) {
        return UcxBytes.UNSAFE ? bigEndian(PlatformDependent.getLong(address + index)) : memory.getLong(base + index);
    }

    @Override
    protected long _getLongLE(int index) {
        return Long.reverseBytes(_getLong(index));
    }

    @Override
    protected void _setByte(int index, int value) {
        if (UcxBytes.UNSAFE) {
            PlatformDependent.putByte(address + index, (byte) value);
        } else {
            memory.put(base + index, (byte) value);
        }
    }

    @Override
    protected void _setShort(int index, int value) {
        if (UcxBytes.UNSAFE) {
            PlatformDependent.putShort(address + index, bigEndian((short) value));
        } else {
            memory.putShort(base + index, (short) value);
        }
    }

    @Override
    protected void _setShortLE(int index, int value) {
        _setShort(index, Short.reverseBytes((short) value));
    }

    @Override
    protected void _setMedium(int index, int value) {
        _setByte(index, value >>> 16);
        _setShort(index + 1, value);
    }

    @Override
    protected void _setMediumLE(int index, int value) {
        _setByte(index, value);
        _setShortLE(index + 1, value >>> 8);
    }

    @Override
    protected void _setInt(int index, int value) {
        if (UcxBytes.UNSAFE) {
            PlatformDependent.putInt(address + index, bigEndian(value));
        } else {
            memory.putInt(base + index, value);
        }
    }

    @Override
    protected void _setIntLE(int index, int value) {
        _setInt(index, Integer.reverseBytes(value));
    }

    @Override
    protected void _setLong(int index, long value) {
        if (UcxBytes.UNSAFE) {
            PlatformDependent.putLong(address + index, bigEndian(value));
        } else {
            memory.putLong(base + index, value);
        }
    }

    @Override
    protected void _setLongLE(int index, long value) {
        _setLong(index, Long.reverseBytes(value));
    }

    @Override
    public ByteBuf setZero(int index, int length) {
        checkIndex(index, length);
        int at = base + index;
        int end = at + length;
        for (; at <= end - Long.BYTES; at += Long.BYTES) {
            memory.putLong(at, 0);
        }
        for (; at < end; at++) {
            memory.put(at, (byte) 0);
        }
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        checkDstIndex(index, length, dstIndex, ObjectUtil.checkNotNull(dst, "dst").capacity());
        if (length == 0) {
            return this;
        }
        if (UcxBytes.UNSAFE && dst.hasMemoryAddress()) {
            PlatformDependent.copyMemory(address + index, dst.memoryAddress() + dstIndex, length);
        } else if (UcxBytes.UNSAFE && dst.hasArray()) {
            PlatformDependent.copyMemory(address + index, dst.array(), dst.arrayOffset() + dstIndex, length);
        } else if (dst instanceof UcxByteBuf) {
            UcxByteBuf to = (UcxByteBuf) dst;
            to.memory.put(to.base + dstIndex, memory, base + index, length);
        } else if (dst.hasArray()) {
            memory.get(base + index, dst.array(), dst.arrayOffset() + dstIndex, length);
        } else {
            dst.setBytes(dstIndex, view(index, length));
        }
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        checkDstIndex(index, length, dstIndex, ObjectUtil.checkNotNull(dst, "dst").length);
        if (UcxBytes.UNSAFE) {
            PlatformDependent.copyMemory(address + index, dst, dstIndex, length);
        } else {
            memory.get(base + index, dst, dstIndex, length);
        }
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        int bytes = dst.remaining();
        checkIndex(index, bytes);
        if (dst.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        int position = dst.position();
        dst.put(position, memory, base + index, bytes);
        dst.position(position + bytes);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, OutputStream out, int length) throws IOException {
        checkIndex(index, length);
        if (length == 0) {
            return this;
        }
        byte[] chunk = new byte[Math.min(length, 8192)];
        for (int done = 0; done < length; ) {
            int n = Math.min(chunk.length, length - done);
            memory.get(base + index + done, chunk, 0, n);
            out.write(chunk, 0, n);
            done += n;
        }
        return this;
    }

    @Override
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        checkIndex(index, length);
        return length == 0 ? 0 : out.write(view(index, length));
    }

    @Override
    public int getBytes(int index, FileChannel out, long position, int length) throws IOException {
        checkIndex(index, length);
        return length == 0 ? 0 : out.write(view(index, length), position);
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        checkSrcIndex(index, length, srcIndex, ObjectUtil.checkNotNull(src, "src").capacity());
        if (length == 0) {
            return this;
        }
        if (UcxBytes.UNSAFE && src.hasMemoryAddress()) {
            PlatformDependent.copyMemory(src.memoryAddress() + srcIndex, address + index, length);
        } else if (UcxBytes.UNSAFE && src.hasArray()) {
            PlatformDependent.copyMemory(src.array(), src.arrayOffset() + srcIndex, address + index, length);
        } else if (src instanceof UcxByteBuf) {
            UcxByteBuf from = (UcxByteBuf) src;
            memory.put(base + index, from.memory, from.base + srcIndex, length);
        } else if (src.hasArray()) {
            memory.put(base + index, src.array(), src.arrayOffset() + srcIndex, length);
        } else {
            src.getBytes(srcIndex, view(index, length));
        }
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        checkSrcIndex(index, length, srcIndex, ObjectUtil.checkNotNull(src, "src").length);
        if (UcxBytes.UNSAFE) {
            PlatformDependent.copyMemory(src, srcIndex, address + index, length);
        } else {
            memory.put(base + index, src, srcIndex, length);
        }
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        int bytes = src.remaining();
        checkIndex(index, bytes);
        int position = src.position();
        memory.put(base + index, src, position, bytes);
        src.position(position + bytes);
        return this;
    }

    @Override
    public int setBytes(int index, InputStream in, int length) throws IOException {
        checkIndex(index, length);
        byte[] chunk = new byte[length];
        int read = in.read(chunk);
        if (read > 0) {
            memory.put(base + index, chunk, 0, read);
        }
        return read;
    }

    @Override
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        checkIndex(index, length);
        try {
            return in.read(internalNioBuffer(index, length));
        } catch (ClosedChannelException ignored) {
            return -1;
        }
    }

    @Override
    public int setBytes(int index, FileChannel in, long position, int length) throws IOException {
        checkIndex(index, length);
        try {
            return in.read(internalNioBuffer(index, length), position);
        } catch (ClosedChannelException ignored) {
            return -1;
        }
    }

    @Override
    public ByteBuf copy(int index, int length) {
        checkIndex(index, length);
        ByteBuf copy = alloc().directBuffer(length, maxCapacity());
        return copy.writeBytes(this, index, length);
    }

    @Override
    public int nioBufferCount() {
        return 1;
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        checkIndex(index, length);
        return view(index, length).slice();
    }

    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        return new ByteBuffer[] {nioBuffer(index, length)};
    }

    /** A view shared by calls on this buffer (like Netty's pooled buffers); not safe across threads. */
    @Override
    public ByteBuffer internalNioBuffer(int index, int length) {
        checkIndex(index, length);
        if (tmpNioBufRegion != region) {
            tmpNioBuf = region.newView();
            tmpNioBufRegion = region;
        }
        int position = regionOffset(index);
        tmpNioBuf.clear().position(position).limit(position + length);
        return tmpNioBuf;
    }

    /** A new view of {@code [index, index + length)}, positioned in the region's coordinates. */
    private ByteBuffer view(int index, int length) {
        int position = regionOffset(index);
        ByteBuffer view = region.newView();
        view.position(position).limit(position + length);
        return view;
    }

    private int regionOffset(int index) {
        return base + index;
    }
}
