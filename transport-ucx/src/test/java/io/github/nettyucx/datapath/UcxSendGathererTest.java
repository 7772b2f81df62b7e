/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxBytes;
import io.github.nettyucx.transport.TestTransport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link UcxSendGatherer} keeps the buffers a slot's send reads in place, and says so: the connection releases
 * them when their sends complete only while it {@link UcxSendGatherer#holdsBuffers() holds any}, so a buffer held
 * without being counted would stay retained until its slot is reused.
 */
class UcxSendGathererTest {
    private static final int PAYLOAD = 64 * 1024;
    private static final int STRIDE = UcxSendGatherer.SLOT_IOV_BYTES + UcxNative.HEADER_BYTES + PAYLOAD;
    private static final int SLOTS = 2;

    @Test
    void buffersSentInPlaceAreCountedHeldAndReleased() {
        TestTransport.UCX.assumeAvailable();
        ByteBuffer area = ByteBuffer.allocateDirect(SLOTS * STRIDE).order(ByteOrder.nativeOrder());
        UcxSendGatherer gatherer = new UcxSendGatherer(area, UcxBytes.address(area), STRIDE, SLOTS);
        ByteBuf large = Unpooled.directBuffer(8192).writeZero(8192);
        ByteBuf small = Unpooled.directBuffer(16).writeZero(16);

        gatherer.reset(0, PAYLOAD, 4096);
        assertTrue(gatherer.processMessage(large));
        assertTrue(gatherer.processMessage(small));
        assertEquals(8192 + 16, gatherer.filled);
        assertEquals(3, gatherer.iovCount, "the header, the large buffer in place, the small one copied");
        assertTrue(gatherer.readsInPlace(0));
        assertFalse(gatherer.readsInPlace(1));
        assertTrue(gatherer.holdsBuffers());
        assertEquals(2, large.refCnt(), "held while the send may read it");
        assertEquals(1, small.refCnt(), "copied, not held");

        gatherer.releaseHeld(0);
        assertFalse(gatherer.holdsBuffers());
        assertEquals(1, large.refCnt());

        gatherer.reset(1, PAYLOAD, 4096);
        gatherer.processMessage(large);
        List<ByteBuf> inUse = new ArrayList<>();
        gatherer.takeHeld(inUse);
        assertEquals(List.of(large), inUse);
        assertFalse(gatherer.holdsBuffers());
        inUse.forEach(ByteBuf::release);
        assertEquals(1, large.refCnt());
        large.release();
        small.release();
    }
}
