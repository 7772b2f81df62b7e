/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

/**
 * What {@link FrameDecoder} produces: a whole {@link Frame}, a {@link FrameTooLarge} notice (the
 * frame's bytes are skipped, the stream stays in sync) or a {@link CorruptStream} (framing is lost;
 * the connection must be closed).
 */
public sealed interface DecodedFrame permits Frame, FrameTooLarge, CorruptStream {
    /** The request id, or -1 when none could be read. */
    long requestId();
}
