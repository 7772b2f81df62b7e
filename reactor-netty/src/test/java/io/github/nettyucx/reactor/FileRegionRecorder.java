/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Put first in a server's pipelines, next to the transport: counts the bytes of the {@link FileRegion}s written to
 * the channel, which the transport sends as they are (with sendfile, or read into its own buffers), so that a test
 * can tell a file sent as a region from one read into buffers by the handlers above.
 */
@ChannelHandler.Sharable
final class FileRegionRecorder extends ChannelOutboundHandlerAdapter {
    static final String NAME = "test.fileRegionRecorder";

    private final AtomicLong regionBytes = new AtomicLong();

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof FileRegion) {
            regionBytes.addAndGet(((FileRegion) msg).count());
        }
        ctx.write(msg, promise);
    }

    long regionBytes() {
        return regionBytes.get();
    }

    void reset() {
        regionBytes.set(0);
    }
}
