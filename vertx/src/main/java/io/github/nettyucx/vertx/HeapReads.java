/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * First in the pipeline of every UCX channel under Vert.x: copies what the channel reads in UCX's registered memory
 * into heap buffers, and gives that memory back at once.
 *
 * <p>Vert.x copies the buffers that reach it out of the pipeline only when Netty's pooled (or adaptive) allocator
 * made them, and then releases them; any other buffer it takes for an unpooled heap buffer, which it keeps and
 * never releases. A UCX channel hands large messages up in the registered buffer they arrived in, whose memory
 * returns to its pool only on release, so without this copy every such buffer would leak out of the pool. The copy
 * replaces the one Vert.x makes of NIO's reads: what leaves this handler is an unpooled heap buffer, which Vert.x
 * keeps as it is.
 */
@ChannelHandler.Sharable
final class HeapReads extends ChannelInboundHandlerAdapter {
    /** The handler's name in the pipeline. */
    static final String NAME = "ucx-heap-reads";

    static final HeapReads INSTANCE = new HeapReads();

    private HeapReads() {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf && ((ByteBuf) msg).alloc() instanceof UcxByteBufAllocator) {
            ByteBuf registered = (ByteBuf) msg;
            ByteBuf heap;
            try {
                heap = Unpooled.buffer(registered.readableBytes());
                heap.writeBytes(registered);
            } finally {
                registered.release();
            }
            ctx.fireChannelRead(heap);
        } else {
            ctx.fireChannelRead(msg);
        }
    }
}
