/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import java.util.Locale;

/** Byte counts on the command line: 1048576, 512k, 64m, 2g. */
final class Sizes {
    private Sizes() {
    }

    static long parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        if (s.endsWith("k")) {
            unit = 1L << 10;
        } else if (s.endsWith("m")) {
            unit = 1L << 20;
        } else if (s.endsWith("g")) {
            unit = 1L << 30;
        }
        if (unit != 1) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s);
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a positive size (e.g. 1048576, 512k, 64m, 2g)");
        }
    }
}
