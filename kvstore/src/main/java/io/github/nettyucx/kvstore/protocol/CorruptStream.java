/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

/** Bytes that cannot start a frame: the stream cannot be resynchronised and must be closed. */
public record CorruptStream(String reason) implements DecodedFrame {
    @Override
    public long requestId() {
        return -1;
    }
}
