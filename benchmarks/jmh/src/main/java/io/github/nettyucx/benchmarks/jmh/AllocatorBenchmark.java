/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One thread allocates a direct buffer, fills it and releases it: the life of a buffer that an
 * event loop reads into, decodes and frees. With {@code -prof gc}, {@code gc.alloc.rate.norm}
 * shows the Java garbage per buffer (0 for a pool that recycles its buffer objects).
 *
 * <p>The benchmark threads are {@code FastThreadLocalThread}s, like event loops (see {@link Jvm});
 * {@link AllocatorPlainThreadBenchmark} runs the same on plain threads.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {Jvm.HEAP, Jvm.HEAP_MAX, Jvm.NO_LEAK_DETECTION, Jvm.CACHE_ALL_THREADS,
        Jvm.EVENT_LOOP_THREADS, Jvm.EVENT_LOOP_THREADS_CLASS})
public class AllocatorBenchmark {
    @Param({Allocators.UCX, Allocators.POOLED, Allocators.ADAPTIVE})
    public String allocator;

    @Param({"64", "1024", "65536"})
    public int size;

    private ByteBufAllocator alloc;
    private byte[] payload;

    @Setup
    public void setUp() {
        alloc = Allocators.byName(allocator);
        payload = Allocators.payload(size);
    }

    @Benchmark
    public long allocateWriteRelease() {
        ByteBuf buf = alloc.directBuffer(size);
        try {
            buf.writeBytes(payload);
            return buf.getLong(size - Long.BYTES);
        } finally {
            buf.release();
        }
    }
}
