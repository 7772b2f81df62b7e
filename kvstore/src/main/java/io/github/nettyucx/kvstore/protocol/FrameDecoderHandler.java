/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/** Pipeline adapter for {@link FrameDecoder}: passes on {@link DecodedFrame}s. */
public final class FrameDecoderHandler extends ByteToMessageDecoder {
    private final FrameDecoder decoder;

    public FrameDecoderHandler(int maxFrameLength) {
        this.decoder = new FrameDecoder(maxFrameLength);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decoder.decode(in, out);
    }
}
