/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.netty.bootstrap.ChannelInitializerExtension;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the {@link FileRegion}s written to the connections servers accept in this JVM, at the head of their
 * pipelines (where the transport takes them), so that a test can see that Vert.x's {@code sendFile} handed the
 * UCX channel a file region rather than chunks read by Vert.x. Loaded like {@link ChannelRecorder}.
 */
public final class FileRegionCounter extends ChannelInitializerExtension {
    private static final AtomicLong WRITTEN = new AtomicLong();
    private static final Counter COUNTER = new Counter();

    @Override
    public void postInitializeServerChildChannel(Channel channel) {
        channel.pipeline().addFirst("test-file-region-counter", COUNTER);
    }

    /** The file regions written so far. */
    static long written() {
        return WRITTEN.get();
    }

    @ChannelHandler.Sharable
    private static final class Counter extends ChannelOutboundHandlerAdapter {
        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof FileRegion) {
                WRITTEN.incrementAndGet();
            }
            ctx.write(msg, promise);
        }
    }
}
