/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.netty.util.internal.PlatformDependent;

/**
 * Big- and little-endian reads and writes of raw memory for {@link UcxByteBuf}. Where the CPU
 * allows unaligned access (x86-64, aarch64) a value is one load or store, byte-swapped when the
 * requested order differs from the native one; elsewhere it is assembled byte by byte, because a
 * buffer index has no alignment guarantee.
 */
final class UcxMemoryAccess {
    private static final boolean UNALIGNED = PlatformDependent.isUnaligned();
    private static final boolean NATIVE_BE = PlatformDependent.BIG_ENDIAN_NATIVE_ORDER;

    private UcxMemoryAccess() {
    }

    static short getShort(long a, boolean bigEndian) {
        if (UNALIGNED) {
            short v = PlatformDependent.getShort(a);
            return bigEndian == NATIVE_BE ? v : Short.reverseBytes(v);
        }
        int b0 = PlatformDependent.getByte(a) & 0xff;
        int b1 = PlatformDependent.getByte(a + 1) & 0xff;
        return (short) (bigEndian ? b0 << 8 | b1 : b1 << 8 | b0);
    }

    static int getInt(long a, boolean bigEndian) {
        if (UNALIGNED) {
            int v = PlatformDependent.getInt(a);
            return bigEndian == NATIVE_BE ? v : Integer.reverseBytes(v);
        }
        int v = 0;
        for (int i = 0; i < Integer.BYTES; i++) {
            v = v << 8 | PlatformDependent.getByte(a + i) & 0xff;
        }
        return bigEndian ? v : Integer.reverseBytes(v);
    }

    static long getLong(long a, boolean bigEndian) {
        if (UNALIGNED) {
            long v = PlatformDependent.getLong(a);
            return bigEndian == NATIVE_BE ? v : Long.reverseBytes(v);
        }
        long v = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            v = v << 8 | PlatformDependent.getByte(a + i) & 0xffL;
        }
        return bigEndian ? v : Long.reverseBytes(v);
    }

    static int getUnsignedMedium(long a, boolean bigEndian) {
        int b0 = PlatformDependent.getByte(a) & 0xff;
        int b1 = PlatformDependent.getByte(a + 1) & 0xff;
        int b2 = PlatformDependent.getByte(a + 2) & 0xff;
        return bigEndian ? b0 << 16 | b1 << 8 | b2 : b2 << 16 | b1 << 8 | b0;
    }

    static void setShort(long a, int value, boolean bigEndian) {
        if (UNALIGNED) {
            short v = (short) value;
            PlatformDependent.putShort(a, bigEndian == NATIVE_BE ? v : Short.reverseBytes(v));
            return;
        }
        int v = bigEndian ? value : Short.reverseBytes((short) value);
        PlatformDependent.putByte(a, (byte) (v >>> 8));
        PlatformDependent.putByte(a + 1, (byte) v);
    }

    static void setInt(long a, int value, boolean bigEndian) {
        if (UNALIGNED) {
            PlatformDependent.putInt(a, bigEndian == NATIVE_BE ? value : Integer.reverseBytes(value));
            return;
        }
        int v = bigEndian ? value : Integer.reverseBytes(value);
        for (int i = Integer.BYTES - 1; i >= 0; i--, v >>>= 8) {
            PlatformDependent.putByte(a + i, (byte) v);
        }
    }

    static void setLong(long a, long value, boolean bigEndian) {
        if (UNALIGNED) {
            PlatformDependent.putLong(a, bigEndian == NATIVE_BE ? value : Long.reverseBytes(value));
            return;
        }
        long v = bigEndian ? value : Long.reverseBytes(value);
        for (int i = Long.BYTES - 1; i >= 0; i--, v >>>= 8) {
            PlatformDependent.putByte(a + i, (byte) v);
        }
    }

    static void setMedium(long a, int value, boolean bigEndian) {
        byte high = (byte) (value >>> 16);
        byte mid = (byte) (value >>> 8);
        byte low = (byte) value;
        PlatformDependent.putByte(a, bigEndian ? high : low);
        PlatformDependent.putByte(a + 1, mid);
        PlatformDependent.putByte(a + 2, bigEndian ? low : high);
    }
}
