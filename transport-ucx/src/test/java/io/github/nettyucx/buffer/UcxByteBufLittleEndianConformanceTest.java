/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.netty.buffer.ByteBuf;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The conformance suite of {@link UcxByteBufConformanceTest} on buffers in little-endian order (the
 * swapped view Netty returns for {@code order(LITTLE_ENDIAN)} over the same memory).
 */
class UcxByteBufLittleEndianConformanceTest extends UcxByteBufConformanceTest {
    @Override
    protected ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBuf buf = super.newBuffer(capacity, maxCapacity).order(ByteOrder.LITTLE_ENDIAN);
        assertSame(ByteOrder.LITTLE_ENDIAN, buf.order());
        assertEquals(0, buf.writerIndex());
        return buf;
    }
}
