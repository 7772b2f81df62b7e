/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.github.nettyucx.transport.LogRecorder;
import io.github.nettyucx.transport.TestTransport;
import io.github.nettyucx.transport.testsuite.RequireUcx;
import io.netty.buffer.AbstractByteBufTest;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Netty's own ByteBuf conformance suite ({@code AbstractByteBufTest} from netty-buffer's test jar)
 * run against big-endian {@link UcxByteBuf}s. Afterwards every buffer must be back in the pools and
 * the paranoid leak detector must have nothing to report.
 */
@RequireUcx
class UcxByteBufConformanceTest extends AbstractByteBufTest {
    private static UcxByteBufAllocator allocator;

    @BeforeAll
    static void createAllocator() {
        TestTransport.requireUcx();
        LogRecorder.install().clear();
        allocator = new UcxByteBufAllocator(new UcxAllocatorConfig(4 << 20, 256 << 20, 64 << 10));
    }

    @AfterAll
    static void everyBufferReturned() throws InterruptedException {
        if (allocator == null) {
            return;
        }
        LogRecorder.provokeLeakReports();
        assertEquals(0, allocator.metric().activeDirectMemory(), "bytes still held by buffers");
        assertEquals(0, allocator.metric().usedHeapMemory(), "heap bytes still held by buffers");
        assertEquals(0, LogRecorder.install().leaks().size(), () -> "leaks: " + LogRecorder.install().leaks());
        allocator.close();
    }

    /**
     * Replaces the base test, which expects unpooled behaviour: like Netty's pooled buffers, a
     * UcxByteBuf grows in place up to its block (256 bytes for 150) and moves beyond it.
     */
    @Override
    @Test
    public void testMaxFastWritableBytes() {
        ByteBuf buffer = newBuffer(150, 500).writerIndex(100);
        try {
            assertEquals(50, buffer.writableBytes());
            assertEquals(256 - 100, buffer.maxFastWritableBytes());
            long address = buffer.memoryAddress();
            buffer.writeBytes(new byte[buffer.maxFastWritableBytes()]);
            assertEquals(address, buffer.memoryAddress(), "grew within its block");
            assertEquals(256, buffer.capacity());
            assertEquals(0, buffer.maxFastWritableBytes());
            buffer.writeByte(7);
            assertNotEquals(address, buffer.memoryAddress(), "moved to a larger block");
            buffer.capacity(500);
            assertEquals(500 - buffer.writerIndex(), buffer.maxFastWritableBytes(), "bounded by maxCapacity");
        } finally {
            buffer.release();
        }
    }

    @Override
    protected ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBuf buf = allocator.directBuffer(capacity, maxCapacity);
        assertSame(ByteOrder.BIG_ENDIAN, buf.order());
        assertEquals(0, buf.writerIndex());
        return buf;
    }
}
