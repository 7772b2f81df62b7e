/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * First in the pipeline of a listening UCX channel under Vert.x: puts {@link HeapReads} first in the pipeline of
 * each connection it accepts, before Netty's {@code ServerBootstrap} (later in this pipeline) adds Vert.x's
 * handlers. The transport makes the listening channels, but the server channel makes the accepted ones.
 */
@ChannelHandler.Sharable
final class AcceptedChannels extends ChannelInboundHandlerAdapter {
    /** The handler's name in the pipeline. */
    static final String NAME = "ucx-accepted-channels";

    static final AcceptedChannels INSTANCE = new AcceptedChannels();

    private AcceptedChannels() {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Channel) {
            ((Channel) msg).pipeline().addFirst(HeapReads.NAME, HeapReads.INSTANCE);
        }
        ctx.fireChannelRead(msg);
    }
}
