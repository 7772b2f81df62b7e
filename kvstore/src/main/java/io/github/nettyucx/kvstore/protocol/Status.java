/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

/** Outcome of a request; the code is the byte after the request id in a response frame. */
public enum Status {
    OK(0),
    NOT_FOUND(1),
    /** The payload could not be parsed; the connection stays usable. */
    BAD_REQUEST(2),
    UNKNOWN_OP(3),
    /** The frame exceeded the server's maximum; it was skipped, the connection stays usable. */
    FRAME_TOO_LARGE(4),
    /** A write was refused because the store reached its memory limit. */
    MEMORY_LIMIT(5),
    SERVER_ERROR(6);

    private static final Status[] BY_CODE = new Status[7];

    static {
        for (Status s : values()) {
            BY_CODE[s.code] = s;
        }
    }

    private final byte code;

    Status(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** True for statuses whose payload is an error message. */
    public boolean isError() {
        return this != OK && this != NOT_FOUND;
    }

    /** The status with this code, or null when the code is not one of ours. */
    public static Status of(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
