/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.github.nettyucx.transport.LogRecorder;
import io.github.nettyucx.transport.TestTransport;
import io.github.nettyucx.transport.testsuite.RequireUcx;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pool behind {@link UcxByteBufAllocator}: size classes, dedicated regions, per-thread caches,
 * release on other threads, the memory limit and memory handles. (The ByteBuf contract itself is
 * Netty's suite, see {@link UcxByteBufConformanceTest}.) Each test has its own allocator and checks
 * that every block came back and the paranoid leak detector stayed quiet.
 */
@RequireUcx
class UcxByteBufAllocatorTest {
    private static final int MIB = 1 << 20;

    private final List<UcxByteBufAllocator> allocators = new ArrayList<>();
    private UcxByteBufAllocator alloc;

    @BeforeEach
    void setUp() {
        TestTransport.requireUcx();
        LogRecorder.install().clear();
        alloc = newAllocator(new UcxAllocatorConfig(4 * MIB, 64 * MIB, 256 << 10));
    }

    @AfterEach
    void everyBlockReturnedAndNoLeak() throws InterruptedException {
        LogRecorder.provokeLeakReports();
        assertEquals(List.of(), LogRecorder.install().leaks());
        for (UcxByteBufAllocator a : allocators) {
            assertEquals(0, a.metric().activeDirectMemory(), "direct bytes still held by buffers");
            assertEquals(0, a.metric().usedHeapMemory(), "heap bytes still held by buffers");
            a.close();
            assertEquals(0, a.metric().usedDirectMemory(), "closing unmaps every region");
        }
    }

    private UcxByteBufAllocator newAllocator(UcxAllocatorConfig config) {
        UcxByteBufAllocator a = new UcxByteBufAllocator(config);
        allocators.add(a);
        return a;
    }

    @Test
    void directBuffersAreRegisteredPooledMemory() {
        assertTrue(alloc.isDirectBufferPooled());
        ByteBuf buf = alloc.buffer(100);
        try {
            assertTrue(buf.isDirect());
            assertTrue(buf.hasMemoryAddress());
            assertSame(alloc, buf.alloc());
            assertEquals(100, buf.capacity());
            assertEquals(128, buf.maxFastWritableBytes(), "a 100-byte buffer gets a 128-byte block");
            assertEquals(4 * MIB, alloc.metric().usedDirectMemory(), "one region mapped");
            assertEquals(128, alloc.metric().activeDirectMemory());
            assertEquals(0, alloc.metric().unregisteredDirectMemory(), "ucp_mem_map succeeded");
            assertNotEquals(0, alloc.memoryHandle(buf));
        } finally {
            assertTrue(buf.release());
        }
        assertEquals(0, alloc.metric().activeDirectMemory());
        assertEquals(4 * MIB, alloc.metric().usedDirectMemory(), "regions stay mapped for reuse");
    }

    @Test
    void bigEndianAccessorsMatchJavaNio() {
        checkAccessors(ByteOrder.BIG_ENDIAN);
    }

    @Test
    void littleEndianAccessorsMatchJavaNio() {
        checkAccessors(ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes every width at odd (unaligned) offsets and compares the bytes with a java.nio buffer's. */
    private void checkAccessors(ByteOrder order) {
        ByteBuf buf = alloc.directBuffer(64).order(order);
        boolean le = order == ByteOrder.LITTLE_ENDIAN;
        ByteBuffer expected = ByteBuffer.allocate(64).order(order);
        try {
            buf.setShort(1, 0x1234);
            expected.putShort(1, (short) 0x1234);
            buf.setMedium(3, 0xABCDEF);
            putMedium(expected, 3, 0xABCDEF, le);
            buf.setInt(7, 0x89ABCDEF);
            expected.putInt(7, 0x89ABCDEF);
            buf.setLong(13, 0x0123456789ABCDEFL);
            expected.putLong(13, 0x0123456789ABCDEFL);
            buf.setChar(23, 'λ');
            expected.putChar(23, 'λ');
            buf.setFloat(27, 3.25f);
            expected.putFloat(27, 3.25f);
            buf.setDouble(33, -1.5e300);
            expected.putDouble(33, -1.5e300);
            byte[] actual = new byte[64];
            buf.getBytes(0, actual);
            assertArrayEquals(expected.array(), actual);

            assertEquals((short) 0x1234, buf.getShort(1));
            assertEquals(0x1234, buf.getUnsignedShort(1));
            assertEquals(0xABCDEF, buf.getUnsignedMedium(3));
            assertEquals(0xFFABCDEF, buf.getMedium(3));
            assertEquals(0x89ABCDEF, buf.getInt(7));
            assertEquals(0x89ABCDEFL, buf.getUnsignedInt(7));
            assertEquals(0x0123456789ABCDEFL, buf.getLong(13));
            assertEquals('λ', buf.getChar(23));
            assertEquals(3.25f, buf.getFloat(27));
            assertEquals(-1.5e300, buf.getDouble(33));
            // The explicitly ordered accessors read the same memory the other way round.
            ByteBuf be = buf.order(ByteOrder.BIG_ENDIAN);
            assertEquals(le ? Short.reverseBytes((short) 0x1234) : (short) 0x1234, be.getShort(1));
            assertEquals(le ? (short) 0x1234 : Short.reverseBytes((short) 0x1234), be.getShortLE(1));
            assertEquals(le ? 0x89ABCDEF : Integer.reverseBytes(0x89ABCDEF), be.getIntLE(7));
            assertEquals(le ? 0x0123456789ABCDEFL : Long.reverseBytes(0x0123456789ABCDEFL), be.getLongLE(13));
            assertEquals(le ? 0xABCDEF : 0xEFCDAB, be.getUnsignedMediumLE(3));
        } finally {
            buf.release();
        }
    }

    private static void putMedium(ByteBuffer b, int index, int value, boolean le) {
        byte hi = (byte) (value >>> 16);
        byte lo = (byte) value;
        b.put(index, le ? lo : hi).put(index + 1, (byte) (value >>> 8)).put(index + 2, le ? hi : lo);
    }

    @Test
    void nioBuffersAreViewsOfTheSameMemory() {
        ByteBuf buf = alloc.directBuffer(256);
        try {
            buf.writeBytes(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
            ByteBuffer nio = buf.nioBuffer(2, 4);
            assertTrue(nio.isDirect());
            assertEquals(4, nio.remaining());
            assertEquals(3, nio.get(0));
            nio.put(1, (byte) 40);
            assertEquals(40, buf.getByte(3), "writes through the view reach the buffer");
            ByteBuffer internal = buf.internalNioBuffer(4, 2);
            assertEquals(5, internal.get(internal.position()));
            ByteBuffer[] all = buf.nioBuffers();
            assertEquals(1, all.length);
            assertEquals(8, all[0].remaining());
        } finally {
            buf.release();
        }
    }

    @Test
    void slicesAndDuplicatesShareMemoryAndMemoryHandle() {
        ByteBuf buf = alloc.directBuffer(1024).writeBytes(new byte[1024]);
        long memh = alloc.memoryHandle(buf);
        assertNotEquals(0, memh);
        ByteBuf slice = buf.slice(100, 200);
        ByteBuf duplicate = buf.duplicate();
        ByteBuf retainedSlice = buf.retainedSlice(10, 20);
        ByteBuf retainedDuplicate = buf.retainedDuplicate();
        ByteBuf swapped = buf.order(ByteOrder.LITTLE_ENDIAN);
        try {
            assertEquals(3, buf.refCnt());
            slice.setByte(0, 42);
            assertEquals(42, buf.getByte(100));
            retainedSlice.setByte(0, 43);
            assertEquals(43, duplicate.getByte(10));
            assertEquals(buf.memoryAddress() + 100, slice.memoryAddress());
            for (ByteBuf view : List.of(slice, duplicate, retainedSlice, retainedDuplicate, swapped,
                    slice.slice(5, 5), Unpooled.unmodifiableBuffer(buf).duplicate())) {
                assertEquals(memh, alloc.memoryHandle(view), () -> "memory handle of " + view);
            }
        } finally {
            retainedSlice.release();
            retainedDuplicate.release();
            assertTrue(buf.release());
        }
    }

    @Test
    void memoryHandleIsZeroForMemoryOfOtherAllocators() {
        ByteBuf heap = alloc.heapBuffer(64);
        ByteBuf unpooled = Unpooled.directBuffer(64);
        ByteBuf pooled = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        UcxByteBufAllocator other = newAllocator(new UcxAllocatorConfig(MIB, 8 * MIB, 0));
        ByteBuf ofOther = other.directBuffer(64);
        CompositeByteBuf composite = alloc.compositeDirectBuffer();
        composite.addComponent(true, alloc.directBuffer(16).writeZero(16));
        composite.addComponent(true, alloc.directBuffer(16).writeZero(16));
        try {
            assertFalse(heap.isDirect());
            assertEquals(0, alloc.memoryHandle(heap));
            assertEquals(0, alloc.memoryHandle(unpooled));
            assertEquals(0, alloc.memoryHandle(pooled));
            assertEquals(0, alloc.memoryHandle(ofOther), "a region of another allocator");
            assertNotEquals(0, other.memoryHandle(ofOther));
            assertEquals(other.memoryHandle(ofOther), UcxByteBufAllocator.memoryHandleOf(ofOther.slice(1, 8)),
                    "found without knowing the allocator");
            assertEquals(0, UcxByteBufAllocator.memoryHandleOf(pooled));
            assertEquals(0, UcxByteBufAllocator.memoryHandleOf(heap));
            assertEquals(0, alloc.memoryHandle(composite), "a composite has no single address");
            assertNotEquals(0, alloc.memoryHandle(composite.component(1)));
        } finally {
            heap.release();
            unpooled.release();
            pooled.release();
            ofOther.release();
            composite.release();
        }
    }

    @Test
    void memoryHandleByAddressFindsPooledAndDedicatedRegions() {
        ByteBuf small = alloc.directBuffer(64);
        ByteBuf large = alloc.directBuffer(3 * MIB);
        try {
            long smallHandle = alloc.memoryHandle(small);
            long largeHandle = alloc.memoryHandle(large);
            assertNotEquals(0, largeHandle);
            assertNotEquals(smallHandle, largeHandle, "a large buffer has a region of its own");
            assertEquals(smallHandle, alloc.memoryHandle(small.memoryAddress() + 10, 20));
            assertEquals(largeHandle, alloc.memoryHandle(large.memoryAddress() + MIB, MIB));
            assertEquals(0, alloc.memoryHandle(large.memoryAddress() + 3 * MIB - 10, 4 * MIB),
                    "a range running past the region");
            assertEquals(0, alloc.memoryHandle(1L << 20, 16), "an address of no region");
        } finally {
            small.release();
            large.release();
        }
        assertEquals(0, alloc.memoryHandle(0, 16));
    }

    @Test
    void capacityGrowsAcrossSizeClassesIntoDedicatedRegionsAndShrinksBack() {
        ByteBuf buf = alloc.directBuffer(10);
        try {
            byte[] pattern = new byte[3 * MIB];
            for (int i = 0; i < pattern.length; i++) {
                pattern[i] = (byte) (i * 31 + 7);
            }
            int written = 0;
            for (int size : new int[] {64, 100, 1000, 70_000, 1 << 20, (1 << 20) + 1, 3 * MIB}) {
                buf.writeBytes(pattern, written, size - written);
                written = size;
                assertTrue(buf.capacity() >= size);
                assertContent(buf, pattern, written);
                assertEquals(expectedBlock(buf.capacity()), alloc.metric().activeDirectMemory(),
                        () -> "blocks held at capacity " + buf.capacity());
            }
            long mappedWithLarge = alloc.metric().usedDirectMemory();
            buf.capacity(5000);
            assertEquals(5000, buf.capacity());
            assertEquals(5000, buf.writerIndex());
            assertContent(buf, pattern, 5000);
            assertEquals(8192, alloc.metric().activeDirectMemory(), "shrinking moved to an 8 KiB block");
            assertTrue(alloc.metric().usedDirectMemory() < mappedWithLarge, "the dedicated region was unmapped");
            buf.capacity(4097);
            assertEquals(8192, alloc.metric().activeDirectMemory(), "above half the block it stays");
            assertContent(buf, pattern, 4097);
            buf.capacity(0);
            assertEquals(0, buf.writerIndex());
            assertEquals(64, alloc.metric().activeDirectMemory());
        } finally {
            buf.release();
        }
    }

    private static int expectedBlock(int capacity) {
        if (capacity > UcxSizeClasses.MAX_POOLED) {
            return (capacity + 4095) / 4096 * 4096;
        }
        return UcxSizeClasses.sizeOf(UcxSizeClasses.indexOf(capacity));
    }

    private static void assertContent(ByteBuf buf, byte[] pattern, int length) {
        byte[] actual = new byte[length];
        buf.getBytes(0, actual);
        for (int i = 0; i < length; i++) {
            if (actual[i] != pattern[i]) {
                assertEquals(pattern[i], actual[i], "byte " + i + " of " + length);
            }
        }
    }

    @Test
    void doubleReleaseThrows() {
        ByteBuf buf = alloc.directBuffer(64);
        assertTrue(buf.release());
        assertThrows(IllegalReferenceCountException.class, buf::release);
        assertThrows(IllegalReferenceCountException.class, () -> buf.getByte(0));
        assertEquals(0, alloc.metric().activeDirectMemory());
    }

    private record Live(ByteBuf buf, int seed) {
    }

    @Test
    void reusedBlocksNeverOverlapLiveBuffers() {
        List<Live> live = new ArrayList<>();
        Set<Long> addresses = new HashSet<>();
        int seed = 0;
        try {
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 300; i++) {
                    int size = 1 + (i * 97 + round * 13) % 5000;
                    live.add(new Live(alloc.directBuffer(size).writeBytes(fill(size, ++seed)), seed));
                }
                for (Live l : live) {
                    assertArrayEquals(fill(l.buf().writerIndex(), l.seed()), bytes(l.buf()), "buffer " + l.seed());
                }
                // Release every other buffer; the next round reuses their blocks while the rest stay live.
                for (int i = live.size() - 1; i >= 0; i -= 2) {
                    live.remove(i).buf().release();
                }
            }
            for (Live l : live) {
                assertTrue(addresses.add(l.buf().memoryAddress()), "two live buffers share an address");
            }
        } finally {
            live.forEach(l -> l.buf().release());
        }
    }

    private static byte[] fill(int size, int seed) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (seed * 7 + i);
        }
        return b;
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] b = new byte[buf.writerIndex()];
        buf.getBytes(0, b);
        return b;
    }

    @Test
    void buffersReleasedOnAnotherThreadReturnToThePool() throws Exception {
        ExecutorService releaser = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < 3; round++) {
                List<ByteBuf> bufs = new ArrayList<>();
                for (int i = 0; i < 2000; i++) {
                    bufs.add(alloc.directBuffer(1024).writeInt(i));
                }
                releaser.submit(() -> bufs.forEach(ByteBuf::release)).get(30, TimeUnit.SECONDS);
                assertEquals(0, alloc.metric().activeDirectMemory(), "round " + round);
                assertEquals(4 * MIB, alloc.metric().usedDirectMemory(),
                        "later rounds reuse the blocks released on the other thread");
            }
        } finally {
            releaser.shutdownNow();
        }
    }

    private static UcxByteBuf unwrapUcx(ByteBuf buf) {
        while (!(buf instanceof UcxByteBuf)) {
            buf = buf.unwrap();
        }
        return (UcxByteBuf) buf;
    }

    @Test
    void bufferObjectsAreReusedOnPlainThreadsToo() throws Exception {
        // JUnit runs this on a plain thread, where Netty's Recycler would create a new object each time.
        assertFalse(Thread.currentThread() instanceof io.netty.util.concurrent.FastThreadLocalThread);
        ByteBuf first = alloc.directBuffer(64);
        UcxByteBuf object = unwrapUcx(first);
        first.release();
        ByteBuf second = alloc.directBuffer(5000);
        assertSame(object, unwrapUcx(second), "the released object was reused");
        assertEquals(5000, second.capacity());
        assertEquals(0, second.writerIndex());
        assertEquals(1, second.refCnt());
        // Released on another thread, the object goes to the shared pool and comes back from there.
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            other.submit(() -> second.release()).get(30, TimeUnit.SECONDS);
        } finally {
            other.shutdownNow();
        }
        assertEquals(1, alloc.bufferPool().size());
        ByteBuf third = alloc.directBuffer(64);
        try {
            assertEquals(0, alloc.bufferPool().size(), "taken from the shared pool");
            assertSame(object, unwrapUcx(third));
        } finally {
            third.release();
        }
    }

    @Test
    void threadCacheOverflowsIntoTheSharedPool() {
        // 4 blocks of 64 bytes per thread and class.
        UcxByteBufAllocator small = newAllocator(new UcxAllocatorConfig(MIB, 8 * MIB, 4 * 64));
        List<ByteBuf> bufs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            bufs.add(small.directBuffer(64));
        }
        UcxThreadCache cache = small.threadCache();
        // Refills take half the capacity (2 blocks) at a time, so ten allocations leave none cached.
        assertEquals(0, cache.cachedCount(0));
        bufs.forEach(ByteBuf::release);
        // A full cache gives half its blocks to the shared pool before taking the next one.
        assertEquals(4, cache.cachedCount(0), "the cache holds at most its bound");
        assertEquals(6, small.pool(0).freeCount(), "the rest went to the shared pool");
        // Large classes exceed the per-class budget and are not cached at all.
        ByteBuf big = small.directBuffer(4096);
        big.release();
        assertEquals(0, cache.cachedCount(UcxSizeClasses.indexOf(4096)));
        assertEquals(1, small.pool(UcxSizeClasses.indexOf(4096)).freeCount());
    }

    @Test
    void concurrentAllocateAndCrossThreadReleaseKeepsBuffersIntact() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        java.util.concurrent.BlockingQueue<ByteBuf> handoff = new java.util.concurrent.LinkedBlockingQueue<>();
        try {
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 5000; i++) {
                        int size = 16 + (i * 131 + seed) % 3000;
                        ByteBuf buf = alloc.directBuffer(size);
                        buf.writeBytes(fill(size, seed + i));
                        handoff.add(buf);
                        ByteBuf other = handoff.poll();
                        if (other != null) {
                            // Released by a thread that did not allocate it.
                            int expectedSize = other.writerIndex();
                            byte first = other.getByte(0);
                            byte last = other.getByte(expectedSize - 1);
                            assertEquals((byte) (first + expectedSize - 1), last);
                            other.release();
                        }
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
            ByteBuf rest;
            while ((rest = handoff.poll()) != null) {
                rest.release();
            }
            assertEquals(0, alloc.metric().activeDirectMemory());
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void exceedingTheLimitThrowsAClearErrorAndRecovers() {
        UcxByteBufAllocator limited = newAllocator(new UcxAllocatorConfig(MIB, 2 * MIB, 0));
        ByteBuf a = limited.directBuffer(MIB);
        ByteBuf b = limited.directBuffer(MIB);
        UcxOutOfMemoryError error = assertThrows(UcxOutOfMemoryError.class, () -> limited.directBuffer(1));
        assertTrue(error.getMessage().contains(UcxAllocatorConfig.MAX_MEMORY_PROPERTY), error.getMessage());
        assertTrue(error.getMessage().contains("max: " + 2 * MIB), error.getMessage());
        UcxOutOfMemoryError large = assertThrows(UcxOutOfMemoryError.class, () -> limited.directBuffer(3 * MIB));
        assertTrue(large.getMessage().startsWith("failed to allocate 3145728 byte(s)"), large.getMessage());
        assertEquals(2 * MIB, limited.metric().usedDirectMemory(), "failed allocations reserve nothing");
        assertEquals(2 * MIB, limited.metric().activeDirectMemory());
        // Growing a buffer beyond the limit fails and leaves it as it was.
        a.writeInt(42);
        assertThrows(UcxOutOfMemoryError.class, () -> a.capacity(2 * MIB));
        assertEquals(MIB, a.capacity());
        assertEquals(42, a.getInt(0));
        a.release();
        ByteBuf c = limited.directBuffer(MIB);
        assertEquals(2 * MIB, limited.metric().usedDirectMemory(), "the released block was reused");
        b.release();
        c.release();
    }

    @Test
    void largeBuffersGetDedicatedRegionsUnmappedOnRelease() {
        long before = alloc.metric().usedDirectMemory();
        ByteBuf large = alloc.directBuffer(MIB + 1);
        assertEquals(before + MIB + 4096, alloc.metric().usedDirectMemory());
        large.writerIndex(large.capacity());
        large.setLong(MIB - 7, 0x1122334455667788L);
        assertEquals(0x1122334455667788L, large.getLong(MIB - 7));
        assertTrue(large.release());
        assertEquals(before, alloc.metric().usedDirectMemory());
    }

    @Test
    void heapBuffersAreCounted() {
        ByteBuf heap = alloc.heapBuffer(1000);
        assertFalse(heap.isDirect());
        assertTrue(heap.hasArray());
        assertSame(alloc, heap.alloc());
        assertTrue(alloc.metric().usedHeapMemory() >= 1000);
        heap.writeBytes(new byte[5000]);
        heap.release();
        assertEquals(0, alloc.metric().usedHeapMemory());
    }

    @Test
    void closeRefusesWhileBuffersAreLiveAndClosedAllocatorRefusesAllocation() {
        UcxByteBufAllocator temporary = new UcxByteBufAllocator(new UcxAllocatorConfig(MIB, 8 * MIB, 1024));
        ByteBuf buf = temporary.directBuffer(64);
        IllegalStateException live = assertThrows(IllegalStateException.class, temporary::close);
        assertTrue(live.getMessage().contains("64 bytes"), live.getMessage());
        buf.release();
        temporary.close();
        assertEquals(0, temporary.metric().usedDirectMemory());
        assertThrows(IllegalStateException.class, () -> temporary.directBuffer(64));
    }

    @Test
    void defaultAllocatorIsConfiguredBySystemProperties() {
        UcxAllocatorConfig config = UcxByteBufAllocator.DEFAULT.config();
        assertEquals(UcxAllocatorConfig.DEFAULT_REGION_SIZE, config.regionSize);
        assertEquals(io.netty.util.internal.PlatformDependent.maxDirectMemory(), config.maxMemory);
        ByteBuf buf = UcxByteBufAllocator.DEFAULT.directBuffer(64);
        try {
            assertNotEquals(0, UcxByteBufAllocator.DEFAULT.memoryHandle(buf));
        } finally {
            buf.release();
        }
        assertThrows(IllegalArgumentException.class, () -> new UcxAllocatorConfig(0, MIB, 0));
        assertThrows(IllegalArgumentException.class, () -> new UcxAllocatorConfig(MIB, -1, 0));
        assertEquals(2 * MIB, new UcxAllocatorConfig(MIB + 1, MIB, 0).regionSize, "rounded up to whole slabs");
    }
}
