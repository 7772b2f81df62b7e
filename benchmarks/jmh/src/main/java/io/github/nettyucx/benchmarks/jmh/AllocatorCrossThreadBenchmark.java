/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

import java.util.concurrent.TimeUnit;

/**
 * One thread allocates and fills direct buffers, another releases them: how gRPC uses buffers an
 * event loop read (the application thread releases them). The two threads are one JMH group; the
 * score is per operation of each thread, so the group's time per buffer is about the larger one.
 * A ring of 1024 buffers decouples them. Both threads are {@code FastThreadLocalThread}s (see {@link Jvm}).
 */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {Jvm.HEAP, Jvm.HEAP_MAX, Jvm.NO_LEAK_DETECTION, Jvm.CACHE_ALL_THREADS,
        Jvm.EVENT_LOOP_THREADS, Jvm.EVENT_LOOP_THREADS_CLASS})
public class AllocatorCrossThreadBenchmark {
    @Param({Allocators.UCX, Allocators.POOLED, Allocators.ADAPTIVE})
    public String allocator;

    @Param({"64", "1024", "65536"})
    public int size;

    private ByteBufAllocator alloc;
    private byte[] payload;
    private SpscRing<ByteBuf> ring;

    @Setup
    public void setUp() {
        alloc = Allocators.byName(allocator);
        payload = Allocators.payload(size);
        ring = new SpscRing<>(1024);
    }

    /** Both threads have stopped: release what is still in the ring. */
    @TearDown(Level.Iteration)
    public void drain() {
        ByteBuf buf;
        while ((buf = ring.poll()) != null) {
            buf.release();
        }
    }

    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public void allocate(Control control) {
        ByteBuf buf = alloc.directBuffer(size).writeBytes(payload);
        while (!ring.offer(buf)) {
            if (control.stopMeasurement) {
                buf.release();
                return;
            }
            // Yield, not spin: on a machine with fewer free cores than threads the other side needs the CPU.
            Thread.yield();
        }
    }

    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public void release(Control control) {
        ByteBuf buf;
        while ((buf = ring.poll()) == null) {
            if (control.stopMeasurement) {
                return;
            }
            Thread.yield();
        }
        buf.release();
    }
}
