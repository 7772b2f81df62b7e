/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;

import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * A deterministic, non-repeating pseudo-random byte stream. A sender and a receiver built from the same seed
 * produce the same bytes, so the receiver can check every byte it gets (position and value), not just a count.
 */
final class DataStream {
    private final SplittableRandom random;
    private final CRC32 crc = new CRC32();
    private long word;
    private int bitsLeft;
    private long position;

    DataStream(long seed) {
        random = new SplittableRandom(seed);
    }

    /** Number of bytes produced (or checked) so far. */
    long position() {
        return position;
    }

    /** CRC32 of all bytes produced (or checked) so far. */
    long crc() {
        return crc.getValue();
    }

    private byte nextByte() {
        if (bitsLeft == 0) {
            word = random.nextLong();
            bitsLeft = 64;
        }
        byte b = (byte) word;
        word >>>= 8;
        bitsLeft -= 8;
        return b;
    }

    /** Fills {@code dst[off, off + len)} with the next bytes of the stream. */
    void fill(byte[] dst, int off, int len) {
        for (int i = 0; i < len; i++) {
            dst[off + i] = nextByte();
        }
        crc.update(dst, off, len);
        position += len;
    }

    byte[] next(int len) {
        byte[] bytes = new byte[len];
        fill(bytes, 0, len);
        return bytes;
    }

    /** Writes the next {@code len} bytes of the stream to {@code dst}, in pieces of at most 1 MiB. */
    void writeTo(ByteBuf dst, int len) {
        byte[] piece = new byte[Math.min(len, 1 << 20)];
        while (len > 0) {
            int n = Math.min(len, piece.length);
            fill(piece, 0, n);
            dst.writeBytes(piece, 0, n);
            len -= n;
        }
    }

    /**
     * Checks that the readable bytes of {@code buf} are the next bytes of the stream (does not move the reader
     * index). Returns {@code null} when they are, otherwise a description of the first difference.
     */
    String check(ByteBuf buf) {
        int start = buf.readerIndex();
        int len = buf.readableBytes();
        // One bulk read: per-byte getByte on a leak-aware buffer records a stack trace per byte under the
        // paranoid leak detector, which starves the event loop that runs this check.
        byte[] actual = new byte[len];
        buf.getBytes(start, actual);
        for (int i = 0; i < len; i++) {
            byte expected = nextByte();
            if (expected != actual[i]) {
                return "byte " + (position + i) + " of the stream: expected " + expected + " but got " + actual[i];
            }
        }
        crc.update(actual);
        position += len;
        return null;
    }
}
