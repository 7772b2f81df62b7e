/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

/** A frame whose length prefix exceeds the maximum; its bytes are being skipped. */
public record FrameTooLarge(long requestId, long length, int maxFrameLength) implements DecodedFrame {
    public String message() {
        return "frame of " + length + " bytes exceeds the maximum of " + maxFrameLength
                + " bytes (raise --max-frame on the server, or send smaller records)";
    }
}
