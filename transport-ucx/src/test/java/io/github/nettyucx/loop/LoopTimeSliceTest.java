/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.transport.TestTransport;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.jni.UcxNative;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A loop asks the kernel for a short time slice while it sleeps in every wait
 * ({@link UcxIdlePolicy#wantsShortSlice()}, carried out by {@link UcxIoHandler}); one that spins keeps the kernel's.
 * The kernel's answer depends on its version: Linux 6.12 and later keep a slice per thread, and report it in
 * {@code /proc/thread-self/sched}; older kernels ignore the request and report 0.
 */
class LoopTimeSliceTest {
    private static final long SHORTEST_NANOS = new UcxIoHandlerConfig().shortSliceNanos();

    @Test
    @Timeout(30)
    void theKernelGrantsTheRequestOrSaysItKeepsNoSlicePerThread() throws Exception {
        TestTransport.requireUcx();
        long requested = 300_000;
        long[] granted = new long[2];
        Thread thread = new Thread(() -> {
            granted[0] = UcxNative.threadRequestSlice(requested);
            granted[1] = slice();
        });
        thread.start();
        thread.join();
        if (slicesPerThread()) {
            assertEquals(requested, granted[0], "the slice the kernel reports after the request");
            assertEquals(requested, granted[1], "se.slice in /proc/thread-self/sched");
        } else {
            assertEquals(0, granted[0], "an older kernel reports no slice of its own");
        }
    }

    @Test
    @Timeout(30)
    void aLoopThatAlwaysSleepsRunsWithTheShortSlice() throws Exception {
        TestTransport.requireUcx();
        assertEquals(slicesPerThread() ? SHORTEST_NANOS : ordinarySlice(), sliceOfLoop(WaitStrategy.SLEEP));
    }

    @ParameterizedTest
    @EnumSource(value = WaitStrategy.class, names = {"BUSY_POLL", "SPIN_THEN_SLEEP"})
    @Timeout(30)
    void aLoopThatSpinsKeepsTheKernelsSlice(WaitStrategy strategy) throws Exception {
        TestTransport.requireUcx();
        assertEquals(ordinarySlice(), sliceOfLoop(strategy));
    }

    /** The slice of a new thread that asked for nothing. */
    private static long ordinarySlice() throws Exception {
        CompletableFuture<Long> ordinary = new CompletableFuture<>();
        new Thread(() -> ordinary.complete(slice())).start();
        return ordinary.get(10, TimeUnit.SECONDS);
    }

    private static long sliceOfLoop(WaitStrategy strategy) throws Exception {
        EventLoopGroup group = new UcxEventLoopGroup(1,
                new UcxIoHandlerConfig().waitStrategy(strategy, 50, TimeUnit.MICROSECONDS));
        try {
            return group.next().submit(LoopTimeSliceTest::slice).get(10, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** The calling thread's slice as the kernel shows it, or -1 where it does not. */
    private static long slice() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/thread-self/sched"))) {
                if (line.startsWith("se.slice")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return -1;
        } catch (IOException e) {
            return -1;
        }
    }

    /** Whether the kernel keeps a time slice per thread that a thread may ask for: Linux 6.12 and later. */
    private static boolean slicesPerThread() {
        return TestTransport.kernelAtLeast(6, 12);
    }
}
