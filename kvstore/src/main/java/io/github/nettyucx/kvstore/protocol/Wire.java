/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Payload encoding shared by requests and responses:
 * <pre>
 * string  uint16 length, UTF-8 bytes          (keys, field names, messages)
 * bytes   int32 length, bytes                 (field values)
 * record  int32 count, count x (string name, bytes value)
 * names   int32 count, count x string         (count 0: all fields)
 * </pre>
 * Readers check every length against the bytes present, so a lying count cannot make them
 * allocate more than the frame holds.
 */
public final class Wire {
    public static final int MAX_STRING_BYTES = 0xFFFF;

    private Wire() {
    }

    /** Starts a frame; returns its start index for {@link #endFrame}. */
    public static int beginFrame(ByteBuf out, long requestId, byte code) {
        int start = out.writerIndex();
        out.writeInt(0);
        out.writeLong(requestId);
        out.writeByte(code);
        return start;
    }

    /** Fills in the length prefix of the frame begun at {@code start}. */
    public static void endFrame(ByteBuf out, int start) {
        out.setInt(start, out.writerIndex() - start - Frame.LENGTH_BYTES);
    }

    public static void writeString(ByteBuf out, String s) {
        int lengthIndex = out.writerIndex();
        out.writeShort(0);
        int n = ByteBufUtil.writeUtf8(out, s);
        if (n > MAX_STRING_BYTES) {
            out.writerIndex(lengthIndex);
            throw new IllegalArgumentException("string of " + n + " UTF-8 bytes exceeds " + MAX_STRING_BYTES + ": "
                    + s.substring(0, 32) + "...");
        }
        out.setShort(lengthIndex, n);
    }

    public static void writeBytes(ByteBuf out, byte[] value) {
        out.writeInt(value.length);
        out.writeBytes(value);
    }

    public static void writeRecord(ByteBuf out, Map<String, byte[]> record) {
        out.writeInt(record.size());
        for (Map.Entry<String, byte[]> e : record.entrySet()) {
            writeString(out, e.getKey());
            writeBytes(out, e.getValue());
        }
    }

    /** Writes field names; null or empty means all fields. */
    public static void writeNames(ByteBuf out, Iterable<String> names) {
        int countIndex = out.writerIndex();
        out.writeInt(0);
        int count = 0;
        if (names != null) {
            for (String name : names) {
                writeString(out, name);
                count++;
            }
        }
        out.setInt(countIndex, count);
    }

    /** Bytes {@link #writeString} needs for {@code s}. */
    public static int stringSize(String s) {
        return 2 + ByteBufUtil.utf8Bytes(s);
    }

    public static String readString(ByteBuf in) throws ProtocolException {
        need(in, 2, "string length");
        int n = in.readUnsignedShort();
        need(in, n, "string");
        String s = in.toString(in.readerIndex(), n, StandardCharsets.UTF_8);
        in.skipBytes(n);
        return s;
    }

    public static byte[] readBytes(ByteBuf in) throws ProtocolException {
        need(in, 4, "value length");
        int n = in.readInt();
        if (n < 0) {
            throw bad("negative value length " + n);
        }
        need(in, n, "value");
        byte[] value = new byte[n];
        in.readBytes(value);
        return value;
    }

    public static Map<String, byte[]> readRecord(ByteBuf in) throws ProtocolException {
        // Each field takes at least 2 + 4 bytes.
        int count = readCount(in, 6, "field");
        Map<String, byte[]> record = new LinkedHashMap<>(Math.max(4, count * 2));
        for (int i = 0; i < count; i++) {
            String name = readString(in);
            record.put(name, readBytes(in));
        }
        return record;
    }

    /** Reads field names; returns null for "all fields". */
    public static List<String> readNames(ByteBuf in) throws ProtocolException {
        int count = readCount(in, 2, "field name");
        if (count == 0) {
            return null;
        }
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(readString(in));
        }
        return Collections.unmodifiableList(names);
    }

    /** Reads an int32 count of items that take at least {@code minItemBytes} each. */
    public static int readCount(ByteBuf in, int minItemBytes, String what) throws ProtocolException {
        need(in, 4, what + " count");
        int count = in.readInt();
        if (count < 0 || (long) count * minItemBytes > in.readableBytes()) {
            throw bad(what + " count " + count + " does not fit the " + in.readableBytes() + " remaining bytes");
        }
        return count;
    }

    public static void need(ByteBuf in, int bytes, String what) throws ProtocolException {
        if (in.readableBytes() < bytes) {
            throw bad("payload ends inside " + what + " (need " + bytes + " bytes, " + in.readableBytes() + " left)");
        }
    }

    public static void expectEnd(ByteBuf in) throws ProtocolException {
        if (in.isReadable()) {
            throw bad(in.readableBytes() + " unexpected bytes after the payload");
        }
    }

    private static ProtocolException bad(String message) {
        return new ProtocolException(Status.BAD_REQUEST, message);
    }
}
