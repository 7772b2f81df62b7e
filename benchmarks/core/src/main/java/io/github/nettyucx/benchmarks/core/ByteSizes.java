/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

/** Message sizes as reports print them. */
public final class ByteSizes {
    private ByteSizes() {
    }

    /** {@code 16 B}, {@code 1 KiB}, {@code 64 KiB}, {@code 1 MiB}; a size that is not a whole KiB stays in bytes. */
    public static String label(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
