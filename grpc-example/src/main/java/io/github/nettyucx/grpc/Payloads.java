/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import com.google.protobuf.ByteString;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Payloads of a given size with a recognisable byte pattern, shared for the sizes that repeat. */
public final class Payloads {
    /** Larger payloads are rare (tests of big messages) and not worth keeping. */
    private static final int MAX_CACHED = 1 << 20;
    private static final ConcurrentMap<Integer, ByteString> CACHE = new ConcurrentHashMap<>();

    private Payloads() {
    }

    public static ByteString of(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("payload size must not be negative: " + size);
        }
        if (size > MAX_CACHED) {
            return ByteString.copyFrom(pattern(size));
        }
        return CACHE.computeIfAbsent(size, s -> ByteString.copyFrom(pattern(s)));
    }

    /** Byte i is {@code i * 31 + i / 251} (mod 256): no short period, so a misplaced chunk shows. */
    public static byte[] pattern(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + i / 251);
        }
        return bytes;
    }
}
