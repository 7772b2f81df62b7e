/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameDecoderTest {
    private final List<DecodedFrame> out = new ArrayList<>();

    @AfterEach
    void releaseFrames() {
        out.forEach(ReferenceCountUtil::release);
    }

    private static ByteBuf putFrame(long id, String key) {
        ByteBuf b = Unpooled.buffer();
        Map<String, byte[]> record = new LinkedHashMap<>();
        record.put("field0", "value0".getBytes(StandardCharsets.UTF_8));
        Request.encode(b, id, OpCode.PUT, key, null, record, 0);
        return b;
    }

    @Test
    void decodesFramesFedOneByteAtATime() throws Exception {
        ByteBuf all = Unpooled.buffer();
        for (int i = 1; i <= 3; i++) {
            ByteBuf f = putFrame(i, "key" + i);
            all.writeBytes(f);
            f.release();
        }
        FrameDecoder decoder = new FrameDecoder(1024);
        // Frames are slices of the input: it must not be compacted while they are alive.
        ByteBuf in = Unpooled.buffer();
        while (all.isReadable()) {
            in.writeByte(all.readByte());
            decoder.decode(in, out);
        }
        all.release();
        assertEquals(0, in.readableBytes());
        in.release();
        assertEquals(3, out.size());
        for (int i = 0; i < 3; i++) {
            Frame f = (Frame) out.get(i);
            assertEquals(i + 1, f.requestId());
            Request r = Request.decode(f);
            assertEquals(OpCode.PUT, r.op());
            assertEquals("key" + (i + 1), r.key());
            assertArrayEquals("value0".getBytes(StandardCharsets.UTF_8), r.values().get("field0"));
        }
    }

    @Test
    void oversizedFrameIsReportedWithItsIdAndSkipped() {
        FrameDecoder decoder = new FrameDecoder(64);
        ByteBuf in = Unpooled.buffer();
        in.writeInt(9 + 1000).writeLong(42).writeByte(OpCode.PUT.code()).writeZero(1000);
        ByteBuf next = putFrame(43, "k");
        in.writeBytes(next);
        next.release();
        // Feed in two pieces so that skipping spans calls.
        ByteBuf first = in.readRetainedSlice(500);
        decoder.decode(first, out);
        assertEquals(0, first.readableBytes());
        first.release();
        decoder.decode(in, out);
        in.release();
        assertEquals(2, out.size());
        FrameTooLarge tooLarge = assertInstanceOf(FrameTooLarge.class, out.get(0));
        assertEquals(42, tooLarge.requestId());
        assertEquals(1009, tooLarge.length());
        assertTrue(tooLarge.message().contains("--max-frame"), tooLarge.message());
        assertEquals(43, assertInstanceOf(Frame.class, out.get(1)).requestId());
        assertFalse(decoder.isCorrupt());
    }

    @Test
    void lengthAbove2GiBIsOversizedNotNegative() {
        FrameDecoder decoder = new FrameDecoder(64);
        ByteBuf in = Unpooled.buffer().writeInt(-1).writeLong(7);
        decoder.decode(in, out);
        in.release();
        FrameTooLarge tooLarge = assertInstanceOf(FrameTooLarge.class, out.get(0));
        assertEquals(0xFFFFFFFFL, tooLarge.length());
        assertEquals(7, tooLarge.requestId());
    }

    @Test
    void lengthBelowHeaderCorruptsTheStreamForGood() {
        FrameDecoder decoder = new FrameDecoder(64);
        ByteBuf in = Unpooled.buffer().writeInt(3).writeBytes(new byte[] {1, 2, 3, 4, 5});
        decoder.decode(in, out);
        assertEquals(1, out.size());
        assertInstanceOf(CorruptStream.class, out.get(0));
        assertTrue(decoder.isCorrupt());
        assertEquals(0, in.readableBytes());
        // A valid frame afterwards is discarded too: there is no way to know where it starts.
        ByteBuf more = putFrame(1, "k");
        decoder.decode(more, out);
        assertEquals(1, out.size());
        assertEquals(0, more.readableBytes());
        more.release();
        in.release();
    }

    @Test
    void partialHeaderWaitsForMoreBytes() {
        FrameDecoder decoder = new FrameDecoder(64);
        ByteBuf in = Unpooled.buffer().writeShort(0);
        decoder.decode(in, out);
        assertTrue(out.isEmpty());
        assertEquals(2, in.readableBytes());
        in.release();
    }

    @Test
    void payloadErrorsNameTheProblem() {
        // GET whose key length says 100 bytes but the payload ends after 3.
        ByteBuf payload = Unpooled.buffer().writeShort(100).writeBytes(new byte[] {'a', 'b', 'c'});
        Frame f = new Frame(5, OpCode.GET.code(), payload);
        ProtocolException e = assertThrows(ProtocolException.class, () -> Request.decode(f));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("string"), e.getMessage());
        f.release();

        // A field count far beyond what the payload can hold must not allocate for it.
        ByteBuf put = Unpooled.buffer().writeShort(1).writeByte('k').writeInt(Integer.MAX_VALUE);
        Frame g = new Frame(6, OpCode.PUT.code(), put);
        e = assertThrows(ProtocolException.class, () -> Request.decode(g));
        assertTrue(e.getMessage().contains("field count"), e.getMessage());
        g.release();

        Frame h = new Frame(7, (byte) 99, Unpooled.EMPTY_BUFFER);
        e = assertThrows(ProtocolException.class, () -> Request.decode(h));
        assertEquals(Status.UNKNOWN_OP, e.status());

        Frame trailing = new Frame(8, OpCode.STATS.code(), Unpooled.buffer().writeByte(1));
        e = assertThrows(ProtocolException.class, () -> Request.decode(trailing));
        assertTrue(e.getMessage().contains("unexpected bytes"), e.getMessage());
        trailing.release();
    }

    @Test
    void getWithoutFieldsMeansAllFields() throws Exception {
        ByteBuf b = Unpooled.buffer();
        Request.encode(b, 9, OpCode.GET, "key", null, null, 0);
        FrameDecoder decoder = new FrameDecoder(64);
        decoder.decode(b, out);
        b.release();
        Request r = Request.decode((Frame) out.get(0));
        assertNull(r.fields());
        assertEquals("key", r.key());
    }
}
