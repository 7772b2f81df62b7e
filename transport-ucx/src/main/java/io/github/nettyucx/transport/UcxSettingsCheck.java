/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses UCX settings from the environment that UCX accepts but mishandles, so that they stop the
 * transport with an explanation instead of corrupting or stalling its connections.
 * <p>
 * A shared-memory segment over 65,535 bytes ({@code UCX_SYSV_SEG_SIZE}, {@code UCX_POSIX_SEG_SIZE}, or
 * {@code UCX_MM_SEG_SIZE} for both): UCX's shared-memory queue records each message's length in 16
 * bits while the segment size bounds the message, so longer messages arrive with wrong lengths. With
 * 66,000 a benchmark at 64 KiB stalled for good.
 */
final class UcxSettingsCheck {
    static final long MAX_SHARED_MEMORY_SEGMENT = 65_535;
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmg]?)b?", Pattern.CASE_INSENSITIVE);

    private UcxSettingsCheck() {
    }

    /** Why the UCX settings in {@code env} cannot be used, or null when they can. */
    static String problem(Map<String, String> env) {
        for (String transport : new String[] {"SYSV", "POSIX"}) {
            String name = "UCX_" + transport + "_SEG_SIZE";
            String value = env.get(name);
            if (value == null) {
                name = "UCX_MM_SEG_SIZE";
                value = env.get(name);
            }
            long bytes = value == null ? -1 : bytes(value);
            if (bytes > MAX_SHARED_MEMORY_SEGMENT) {
                return name + "=" + value + " is over " + MAX_SHARED_MEMORY_SEGMENT + " bytes: UCX's shared-memory "
                        + "queue keeps message lengths in 16 bits and would deliver longer messages corrupted; "
                        + "unset it or set at most " + MAX_SHARED_MEMORY_SEGMENT;
            }
        }
        return null;
    }

    /** A UCX memory size ({@code 8256}, {@code 64k}, {@code 1MB}) in bytes, or -1 if it is not one. */
    static long bytes(String value) {
        Matcher m = SIZE.matcher(value.trim());
        if (!m.matches()) {
            return -1;
        }
        try {
            long n = Long.parseLong(m.group(1));
            switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "k":
                    return Math.multiplyExact(n, 1L << 10);
                case "m":
                    return Math.multiplyExact(n, 1L << 20);
                case "g":
                    return Math.multiplyExact(n, 1L << 30);
                default:
                    return n;
            }
        } catch (ArithmeticException | NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
