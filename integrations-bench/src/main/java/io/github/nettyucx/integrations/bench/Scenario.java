/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.integrations.bench;

import java.util.Locale;

/**
 * What one measurement window does: requests of {@code bytes} from {@code threads} application threads, each
 * waiting for its answer before the next (what a service calling another does), or one thread reading a server
 * stream of {@code bytes}-byte messages.
 */
record Scenario(Kind kind, int bytes, int threads) {
    enum Kind { CALL, STREAM }

    static Scenario calls(int bytes, int threads) {
        return new Scenario(Kind.CALL, bytes, threads);
    }

    static Scenario stream(int bytes) {
        return new Scenario(Kind.STREAM, bytes, 1);
    }

    /** The name results carry, e.g. {@code call-1KiB-x8} or {@code stream-64KiB}. */
    String name() {
        String size = bytes % 1024 == 0 ? (bytes / 1024) + "KiB" : bytes + "B";
        return kind == Kind.CALL ? String.format(Locale.ROOT, "call-%s-x%d", size, threads) : "stream-" + size;
    }
}
