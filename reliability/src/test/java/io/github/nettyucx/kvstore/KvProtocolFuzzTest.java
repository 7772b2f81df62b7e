/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Timeout;
import io.github.nettyucx.kvstore.protocol.CorruptStream;
import io.github.nettyucx.kvstore.protocol.DecodedFrame;
import io.github.nettyucx.kvstore.protocol.Frame;
import io.github.nettyucx.kvstore.protocol.FrameDecoder;
import io.github.nettyucx.kvstore.protocol.FrameTooLarge;
import io.github.nettyucx.kvstore.protocol.ProtocolException;
import io.github.nettyucx.kvstore.protocol.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing (Jazzer) of the key-value store's protocol decoding, the part of the server that
 * parses bytes from any client: {@link FrameDecoder} splitting the stream into frames, then
 * {@link Request#decode} parsing each frame's payload.
 * <p>
 * By default the inputs in {@code KvProtocolFuzzTestInputs/decodeStream} (seeds and any crash reproducers)
 * are replayed as regression tests; {@code -Djazzer.fuzz=true} with the long suite fuzzes for
 * {@code maxDuration} (see docs/reliability.md).
 */
class KvProtocolFuzzTest {
    /** Small, so that the fuzzer reaches the oversized-frame path with short inputs. */
    private static final int MAX_FRAME_LENGTH = 256;

    /**
     * Whatever the bytes: decoding yields frames, at most one oversized-frame notice per frame, or a corrupt
     * stream notice after which nothing more is produced; every frame's payload either parses to a request
     * or is refused with the protocol's {@link ProtocolException}; nothing is leaked. Feeding the bytes in
     * two pieces gives the same result as feeding them at once (the network delivers arbitrary pieces).
     */
    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 6, unit = TimeUnit.MINUTES) // fuzzing mode runs for maxDuration in one invocation
    void decodeStream(byte[] data) {
        List<String> whole = decode(data, data.length);
        if (data.length > 1) {
            int split = Math.floorMod(data[0] * 31 + data.length, data.length);
            assertEquals(whole, decode(data, split), "decoding in two pieces differs from decoding at once");
        }
    }

    /** Decodes {@code data} fed as [0, split) then [split, end); describes every outcome. */
    private static List<String> decode(byte[] data, int split) {
        FrameDecoder decoder = new FrameDecoder(MAX_FRAME_LENGTH);
        List<DecodedFrame> frames = new ArrayList<>();
        ByteBuf in = Unpooled.buffer(data.length);
        try {
            in.writeBytes(data, 0, split);
            decoder.decode(in, frames);
            // No discardReadBytes(): frames from the first piece may be slices of this buffer.
            in.writeBytes(data, split, data.length - split);
            decoder.decode(in, frames);
        } finally {
            in.release();
        }
        List<String> outcomes = new ArrayList<>();
        boolean corrupt = false;
        for (DecodedFrame decoded : frames) {
            assertTrue(!corrupt, "a frame after the stream was found corrupt");
            if (decoded instanceof Frame frame) {
                outcomes.add(describe(frame));
            } else if (decoded instanceof FrameTooLarge tooLarge) {
                assertTrue(tooLarge.length() > MAX_FRAME_LENGTH, "a frame within the limit reported too large");
                outcomes.add("too large " + tooLarge.requestId() + " " + tooLarge.length());
            } else {
                corrupt = true;
                outcomes.add("corrupt " + ((CorruptStream) decoded).reason());
            }
        }
        assertEquals(corrupt, decoder.isCorrupt());
        return outcomes;
    }

    private static String describe(Frame frame) {
        try {
            assertTrue(frame.payload().readableBytes() <= MAX_FRAME_LENGTH, "payload above the frame limit");
            String bytes = ByteBufUtil.hexDump(frame.payload());
            try {
                Request request = Request.decode(frame);
                return "request " + frame.requestId() + " " + request.op() + " " + bytes;
            } catch (ProtocolException e) {
                return "refused " + frame.requestId() + " " + e.getMessage();
            }
        } finally {
            frame.release();
        }
    }
}
