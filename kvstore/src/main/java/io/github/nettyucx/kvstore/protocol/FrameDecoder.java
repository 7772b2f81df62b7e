/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.ObjectUtil;

import java.util.List;

/**
 * Splits a byte stream into frames. Free of channels and pipelines so that it can be fed arbitrary
 * bytes directly (tests, fuzzers): call {@link #decode} with whatever has arrived; it consumes every
 * whole frame and leaves a partial one in the buffer for the next call.
 *
 * <pre>
 * int32  length      bytes after this field: 9 + payload, at most maxFrameLength
 * int64  request id
 * uint8  code        OpCode in requests, Status in responses
 * bytes  payload
 * </pre>
 *
 * A length above the maximum yields one {@link FrameTooLarge} (once the request id has arrived)
 * and the frame's bytes are then skipped as they arrive, so one oversized request does not cost the
 * connection. A length below the header size yields {@link CorruptStream}; from then on every byte
 * is discarded, because nothing in the stream marks where a frame starts.
 */
public final class FrameDecoder {
    private final int maxFrameLength;
    /** Bytes of an oversized frame still to skip. */
    private long toSkip;
    private boolean corrupt;

    public FrameDecoder(int maxFrameLength) {
        this.maxFrameLength = ObjectUtil.checkInRange(maxFrameLength, Frame.HEADER_BYTES,
                Integer.MAX_VALUE - Frame.LENGTH_BYTES, "maxFrameLength");
    }

    public int maxFrameLength() {
        return maxFrameLength;
    }

    /** True once the stream was found corrupt; all further input is discarded. */
    public boolean isCorrupt() {
        return corrupt;
    }

    /**
     * Decodes every whole frame in {@code in} into {@code out}. {@link Frame}s hold a retained slice
     * of {@code in} that the caller must release.
     */
    public void decode(ByteBuf in, List<? super DecodedFrame> out) {
        while (true) {
            if (corrupt) {
                in.skipBytes(in.readableBytes());
                return;
            }
            if (toSkip > 0) {
                int n = (int) Math.min(toSkip, in.readableBytes());
                in.skipBytes(n);
                toSkip -= n;
                if (toSkip > 0) {
                    return;
                }
            }
            int readable = in.readableBytes();
            if (readable < Frame.LENGTH_BYTES) {
                return;
            }
            int start = in.readerIndex();
            // Unsigned: a negative int32 is a length above 2 GiB, i.e. oversized rather than corrupt.
            long length = in.getUnsignedInt(start);
            if (length < Frame.HEADER_BYTES) {
                corrupt = true;
                in.skipBytes(readable);
                out.add(new CorruptStream("frame length " + length + " is below the " + Frame.HEADER_BYTES
                        + "-byte header (request id and code): not a kvstore stream, or out of sync"));
                return;
            }
            if (length > maxFrameLength) {
                if (readable < Frame.LENGTH_BYTES + 8) {
                    return;
                }
                long requestId = in.getLong(start + Frame.LENGTH_BYTES);
                toSkip = Frame.LENGTH_BYTES + length;
                out.add(new FrameTooLarge(requestId, length, maxFrameLength));
                continue;
            }
            if (readable < Frame.LENGTH_BYTES + length) {
                return;
            }
            in.skipBytes(Frame.LENGTH_BYTES);
            long requestId = in.readLong();
            byte code = in.readByte();
            ByteBuf payload = in.readRetainedSlice((int) length - Frame.HEADER_BYTES);
            out.add(new Frame(requestId, code, payload));
        }
    }
}
