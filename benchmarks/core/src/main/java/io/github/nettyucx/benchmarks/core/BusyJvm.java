/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.util.zip.CRC32C;

/**
 * A JVM that keeps every core busy with work of its own until it is stopped: one thread per processor, each
 * filling fresh arrays and checksumming them, so that its garbage collector and JIT compiler run as a real
 * application's would. The {@code jvm} kind of {@link Neighbours}.
 */
public final class BusyJvm {
    private BusyJvm() {
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(BusyJvm::work, "busy-" + i);
            t.setDaemon(true);
            t.start();
        }
        Thread.currentThread().join();
    }

    private static void work() {
        CRC32C crc = new CRC32C();
        long sink = 0;
        for (long n = 0; ; n++) {
            byte[] block = new byte[4096 + (int) (n & 4095)];
            for (int i = 0; i < block.length; i += 64) {
                block[i] = (byte) (n + i);
            }
            crc.update(block);
            sink += crc.getValue();
            if (sink == 42) {
                System.out.println(sink);
            }
        }
    }
}
