/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxBytes;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.FileRegion;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Plans one send of a {@link UcxConnection} over the flushed buffers without consuming them: the slot's I/O vector
 * gets an entry per buffer sent in place and one per run of bytes copied into the slot. It keeps, per send slot,
 * the buffers that slot's send reads in place, retained until UCX is done with them.
 */
final class UcxSendGatherer implements ChannelOutboundBuffer.MessageProcessor {
    /** Bytes of a slot's I/O vector, in front of its header. */
    static final int SLOT_IOV_BYTES = UcxNative.MAX_IOV * UcxNative.IOV_ENTRY_BYTES;
    /** The send slots (C: nucx_send_iov, nucx_send_slot): each an I/O vector, a header, then the payload. */
    private final ByteBuffer sendArea;
    private final long sendAreaAddress;
    private final int slotStride;
    /**
     * Per send slot: the buffers its send reads in place; a slot's array is made with its first such send, so that
     * a connection that only copies holds none.
     */
    private final ByteBuf[][] heldBySlot;
    private final int[] heldCount;
    private int slotsHoldingBuffers;

    UcxSendGatherer(ByteBuffer sendArea, long sendAreaAddress, int slotStride, int sendSlots) {
        this.sendArea = sendArea;
        this.sendAreaAddress = sendAreaAddress;
        this.slotStride = slotStride;
        this.heldBySlot = new ByteBuf[sendSlots][];
        this.heldCount = new int[sendSlots];
    }

    private int slot;
    private int stagingOffset;
    private int capacity;
    private int copied;
    private boolean lastEntryCopied;
    private int inPlaceMinBytes;
    int filled;
    int iovCount;
    /** The FileRegion that ended the gathering with room left in the message, or null. */
    FileRegion region;

    void reset(int slot, int capacity, int inPlaceMinBytes) {
        this.slot = slot;
        this.inPlaceMinBytes = inPlaceMinBytes;
        this.stagingOffset = slot * slotStride + SLOT_IOV_BYTES + UcxNative.HEADER_BYTES;
        this.capacity = capacity;
        this.copied = 0;
        this.lastEntryCopied = false;
        this.filled = 0;
        this.iovCount = 1;
        this.region = null;
    }

    @Override
    public boolean processMessage(Object msg) {
        if (!(msg instanceof ByteBuf)) {
            // Only FileRegions pass the channel's filter besides buffers. Called only with room left.
            if (lastEntryCopied || iovCount < UcxNative.MAX_IOV) {
                region = (FileRegion) msg;
            }
            return false;
        }
        ByteBuf buf = (ByteBuf) msg;
        int n = Math.min(buf.readableBytes(), capacity - filled);
        if (n <= 0) {
            return filled < capacity;
        }
        if (n >= inPlaceMinBytes && buf.hasMemoryAddress()) {
            if (iovCount == UcxNative.MAX_IOV) {
                return false;
            }
            addEntry(buf.memoryAddress() + buf.readerIndex(), n);
            ByteBuf[] held = heldBySlot[slot];
            if (held == null) {
                held = new ByteBuf[UcxNative.MAX_IOV - 1];
                heldBySlot[slot] = held;
            }
            if (heldCount[slot] == 0) {
                slotsHoldingBuffers++;
            }
            held[heldCount[slot]++] = buf.retain();
            lastEntryCopied = false;
        } else {
            if (!lastEntryCopied) {
                if (iovCount == UcxNative.MAX_IOV) {
                    return false;
                }
                addEntry(sendAreaAddress + stagingOffset + copied, 0);
                lastEntryCopied = true;
            }
            copyIn(buf, stagingOffset + copied, n);
            copied += n;
            growLastEntry(n);
        }
        filled += n;
        return filled < capacity;
    }

    /** Where the next bytes copied into the slot go, as an offset in the send area. */
    int nextCopyOffset() {
        return stagingOffset + copied;
    }

    /** Bytes the message can still take. */
    int room() {
        return capacity - filled;
    }

    /** Counts {@code n} bytes written at {@link #nextCopyOffset()} into the message, as a copied run. */
    void appendCopied(int n) {
        if (n == 0) {
            return;
        }
        if (!lastEntryCopied) {
            addEntry(sendAreaAddress + stagingOffset + copied, 0);
            lastEntryCopied = true;
        }
        copied += n;
        growLastEntry(n);
        filled += n;
    }

    private int entryOffset(int entry) {
        return slot * slotStride + entry * UcxNative.IOV_ENTRY_BYTES;
    }

    private void addEntry(long address, int length) {
        int entry = entryOffset(iovCount++);
        UcxBytes.putLong(sendArea, sendAreaAddress, entry + UcxNative.IOV_BUFFER_OFFSET, address);
        UcxBytes.putLong(sendArea, sendAreaAddress, entry + UcxNative.IOV_LENGTH_OFFSET, length);
    }

    private void growLastEntry(int n) {
        int length = entryOffset(iovCount - 1) + UcxNative.IOV_LENGTH_OFFSET;
        UcxBytes.putLong(sendArea, sendAreaAddress, length, UcxBytes.getLong(sendArea, sendAreaAddress, length) + n);
    }

    /** Copies {@code n} readable bytes of {@code src} to {@code offset} of the send area, without allocating. */
    private void copyIn(ByteBuf src, int offset, int n) {
        UcxBytes.copy(src, src.readerIndex(), sendArea, sendAreaAddress, offset, n);
    }

    /** Whether the send of {@code slot} reads buffers in place (its I/O vector goes, not the slot's bytes). */
    boolean readsInPlace(int slot) {
        return heldCount[slot] > 0;
    }

    /** Whether any slot holds buffers. */
    boolean holdsBuffers() {
        return slotsHoldingBuffers > 0;
    }

    /** Releases the buffers the send of {@code slot} read in place: UCX no longer reads them. */
    void releaseHeld(int slot) {
        int count = heldCount[slot];
        if (count == 0) {
            return;
        }
        ByteBuf[] held = heldBySlot[slot];
        for (int i = 0; i < count; i++) {
            held[i].release();
            held[i] = null;
        }
        heldCount[slot] = 0;
        slotsHoldingBuffers--;
    }

    /** Moves every buffer still held to {@code inUse}: the connection closes while UCX may still read them. */
    void takeHeld(List<ByteBuf> inUse) {
        for (int slot = 0; slot < heldCount.length; slot++) {
            for (int i = 0; i < heldCount[slot]; i++) {
                inUse.add(heldBySlot[slot][i]);
                heldBySlot[slot][i] = null;
            }
            heldCount[slot] = 0;
        }
        slotsHoldingBuffers = 0;
    }
}
