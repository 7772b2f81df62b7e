/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

/** The operations a request frame can ask for; the code is the byte after the request id. */
public enum OpCode {
    /** Read a record, optionally only some of its fields. */
    GET(1),
    /** Insert or replace a whole record. */
    PUT(2),
    /** Merge fields into an existing record. */
    UPDATE(3),
    DELETE(4),
    /** Records in key order from a start key, at most a given count. */
    SCAN(5),
    /** Server counters as a record of name to decimal text. */
    STATS(6);

    private static final OpCode[] BY_CODE = new OpCode[7];

    static {
        for (OpCode op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    private final byte code;

    OpCode(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** The operation with this code, or null when the code is not one of ours. */
    public static OpCode of(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
