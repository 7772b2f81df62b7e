/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link AllocatorBenchmark} on plain threads (JMH's default), as application threads that
 * allocate buffers (gRPC serializing a message) run. Netty's {@code Recycler} pools objects only on
 * {@code FastThreadLocalThread}s, so here an allocator that relies on it creates an object per
 * buffer.
 */
@Fork(value = 1, jvmArgsAppend = {Jvm.HEAP, Jvm.HEAP_MAX, Jvm.NO_LEAK_DETECTION, Jvm.CACHE_ALL_THREADS})
public class AllocatorPlainThreadBenchmark extends AllocatorBenchmark {
}
