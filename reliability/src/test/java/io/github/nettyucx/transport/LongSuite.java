/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

/**
 * The switch between the CI variants of the tests (the default) and the long ones
 * ({@code -Dreliability.long=true}, see docs/reliability.md).
 */
final class LongSuite {
    static final String PROPERTY = "reliability.long";

    private LongSuite() {
    }

    static boolean enabled() {
        return Boolean.getBoolean(PROPERTY);
    }

    /** {@code ci} normally, {@code full} in the long suite. */
    static long choose(long ci, long full) {
        return enabled() ? full : ci;
    }

    static int choose(int ci, int full) {
        return enabled() ? full : ci;
    }
}
