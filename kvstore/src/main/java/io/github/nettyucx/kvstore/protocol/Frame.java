/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * One whole frame: request id, code (an {@link OpCode} in requests, a {@link Status} in responses)
 * and the payload, a retained slice of the received bytes that the receiver must release.
 */
public final class Frame extends DefaultByteBufHolder implements DecodedFrame {
    /** Bytes of the length prefix. */
    public static final int LENGTH_BYTES = 4;
    /** Bytes after the length prefix that every frame has: request id (8) and code (1). */
    public static final int HEADER_BYTES = 9;
    /** Default upper bound for the length prefix (header + payload). */
    public static final int DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024;

    private final long requestId;
    private final byte code;

    public Frame(long requestId, byte code, ByteBuf payload) {
        super(payload);
        this.requestId = requestId;
        this.code = code;
    }

    @Override
    public long requestId() {
        return requestId;
    }

    public byte code() {
        return code;
    }

    public ByteBuf payload() {
        return content();
    }

    @Override
    public String toString() {
        return "Frame(id=" + requestId + ", code=" + code + ", payload=" + content().readableBytes() + " B)";
    }
}
