/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

import io.netty.buffer.ByteBuf;

import java.util.List;
import java.util.Map;

/**
 * A decoded request. Which members are set depends on the operation:
 * <pre>
 * GET     key, fields (null: all)
 * PUT     key, values
 * UPDATE  key, values
 * DELETE  key
 * SCAN    key (start, inclusive), count, fields (null: all)
 * STATS   nothing
 * </pre>
 */
public record Request(long id, OpCode op, String key, List<String> fields, Map<String, byte[]> values, int count) {

    /** Parses the payload of a request frame; does not release the frame. */
    public static Request decode(Frame frame) throws ProtocolException {
        OpCode op = OpCode.of(frame.code());
        if (op == null) {
            throw new ProtocolException(Status.UNKNOWN_OP, "unknown operation code " + (frame.code() & 0xFF)
                    + " (known: 1 get, 2 put, 3 update, 4 delete, 5 scan, 6 stats)");
        }
        ByteBuf in = frame.payload().duplicate();
        Request r;
        switch (op) {
            case GET:
                r = new Request(frame.requestId(), op, Wire.readString(in), Wire.readNames(in), null, 0);
                break;
            case PUT:
            case UPDATE:
                r = new Request(frame.requestId(), op, Wire.readString(in), null, Wire.readRecord(in), 0);
                break;
            case DELETE:
                r = new Request(frame.requestId(), op, Wire.readString(in), null, null, 0);
                break;
            case SCAN: {
                String start = Wire.readString(in);
                Wire.need(in, 4, "scan count");
                int count = in.readInt();
                if (count < 0) {
                    throw new ProtocolException(Status.BAD_REQUEST, "negative scan count " + count);
                }
                r = new Request(frame.requestId(), op, start, Wire.readNames(in), null, count);
                break;
            }
            case STATS:
                r = new Request(frame.requestId(), op, null, null, null, 0);
                break;
            default:
                throw new AssertionError(op);
        }
        Wire.expectEnd(in);
        return r;
    }

    /** Writes a whole request frame (client side). */
    public static void encode(ByteBuf out, long id, OpCode op, String key, Iterable<String> fields,
                              Map<String, byte[]> values, int count) {
        int start = Wire.beginFrame(out, id, op.code());
        switch (op) {
            case GET:
                Wire.writeString(out, key);
                Wire.writeNames(out, fields);
                break;
            case PUT:
            case UPDATE:
                Wire.writeString(out, key);
                Wire.writeRecord(out, values);
                break;
            case DELETE:
                Wire.writeString(out, key);
                break;
            case SCAN:
                Wire.writeString(out, key);
                out.writeInt(count);
                Wire.writeNames(out, fields);
                break;
            case STATS:
                break;
            default:
                throw new AssertionError(op);
        }
        Wire.endFrame(out, start);
    }
}
