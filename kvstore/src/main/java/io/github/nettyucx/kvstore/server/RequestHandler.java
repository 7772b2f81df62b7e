/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.server;

import io.github.nettyucx.kvstore.protocol.CorruptStream;
import io.github.nettyucx.kvstore.protocol.Frame;
import io.github.nettyucx.kvstore.protocol.FrameTooLarge;
import io.github.nettyucx.kvstore.protocol.ProtocolException;
import io.github.nettyucx.kvstore.protocol.Request;
import io.github.nettyucx.kvstore.protocol.Status;
import io.github.nettyucx.kvstore.protocol.Wire;
import io.github.nettyucx.kvstore.store.MemoryLimitException;
import io.github.nettyucx.kvstore.store.RecordStore;
import io.github.nettyucx.kvstore.store.StoredRecord;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Serves the requests of one connection on its event loop. The store never blocks, so requests run
 * inline; responses are written as they are produced and flushed once per read burst, which lets a
 * pipelining client get many responses per send.
 *
 * <p>If the client stops reading, the channel stops being writable and this handler stops reading
 * requests until it drains, so a client cannot make the server buffer without bound.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(RequestHandler.class);

    private final RecordStore store;
    private final ServerStats stats;
    private final int maxFrameLength;

    RequestHandler(RecordStore store, ServerStats stats, int maxFrameLength) {
        this.store = store;
        this.stats = stats;
        this.maxFrameLength = maxFrameLength;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        stats.connectionsOpen.increment();
        stats.connectionsTotal.increment();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stats.connectionsOpen.decrement();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Frame) {
                serve(ctx, (Frame) msg);
            } else if (msg instanceof FrameTooLarge) {
                FrameTooLarge tooLarge = (FrameTooLarge) msg;
                stats.errors.increment();
                writeError(ctx, tooLarge.requestId(), Status.FRAME_TOO_LARGE, tooLarge.message());
            } else if (msg instanceof CorruptStream) {
                stats.corruptStreams.increment();
                // Once at WARN: a misbehaving client could otherwise fill the log.
                if (stats.corruptStreamLogged.compareAndSet(false, true)) {
                    logger.warn("{}: closing the connection: {} (later cases are logged at DEBUG and counted "
                            + "in stats corrupt_streams)", ctx.channel(), ((CorruptStream) msg).reason());
                } else {
                    logger.debug("{}: closing the connection: {}", ctx.channel(), ((CorruptStream) msg).reason());
                }
                // Responses already produced still go out; then the connection ends.
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            } else {
                throw new IllegalStateException("unexpected message " + msg.getClass().getName());
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void serve(ChannelHandlerContext ctx, Frame frame) {
        stats.requests.increment();
        Request request;
        try {
            request = Request.decode(frame);
        } catch (ProtocolException e) {
            stats.errors.increment();
            writeError(ctx, frame.requestId(), e.status(), e.getMessage());
            return;
        }
        try {
            execute(ctx, request);
        } catch (MemoryLimitException e) {
            stats.errors.increment();
            writeError(ctx, request.id(), Status.MEMORY_LIMIT, e.getMessage());
        }
    }

    private void execute(ChannelHandlerContext ctx, Request r) throws MemoryLimitException {
        switch (r.op()) {
            case GET: {
                StoredRecord record = store.get(r.key());
                if (record == null) {
                    writeEmpty(ctx, r.id(), Status.NOT_FOUND);
                } else {
                    ByteBuf out = ctx.alloc().buffer();
                    int start = Wire.beginFrame(out, r.id(), Status.OK.code());
                    Wire.writeRecord(out, record.select(r.fields()));
                    Wire.endFrame(out, start);
                    ctx.write(out, ctx.voidPromise());
                }
                break;
            }
            case PUT:
                store.put(r.key(), r.values());
                writeEmpty(ctx, r.id(), Status.OK);
                break;
            case UPDATE:
                writeEmpty(ctx, r.id(), store.update(r.key(), r.values()) ? Status.OK : Status.NOT_FOUND);
                break;
            case DELETE:
                writeEmpty(ctx, r.id(), store.delete(r.key()) ? Status.OK : Status.NOT_FOUND);
                break;
            case SCAN: {
                // Rows stop at the count or where the response would pass the frame limit, so a
                // huge count cannot make the server build an unbounded response.
                ByteBuf out = ctx.alloc().buffer();
                int start = Wire.beginFrame(out, r.id(), Status.OK.code());
                int countIndex = out.writerIndex();
                out.writeInt(0);
                int rows = 0;
                Iterator<Map.Entry<String, StoredRecord>> it = store.from(r.key());
                while (rows < r.count() && it.hasNext()) {
                    Map.Entry<String, StoredRecord> row = it.next();
                    int rowStart = out.writerIndex();
                    Wire.writeString(out, row.getKey());
                    Wire.writeRecord(out, row.getValue().select(r.fields()));
                    if (out.writerIndex() - start - Frame.LENGTH_BYTES > maxFrameLength) {
                        out.writerIndex(rowStart);
                        break;
                    }
                    rows++;
                }
                out.setInt(countIndex, rows);
                Wire.endFrame(out, start);
                ctx.write(out, ctx.voidPromise());
                break;
            }
            case STATS: {
                Map<String, byte[]> s = new LinkedHashMap<>();
                put(s, "records", store.recordCount());
                put(s, "used_bytes", store.usedBytes());
                put(s, "max_bytes", store.maxBytes());
                put(s, "connections_open", stats.connectionsOpen.sum());
                put(s, "connections_total", stats.connectionsTotal.sum());
                put(s, "requests", stats.requests.sum());
                put(s, "errors", stats.errors.sum());
                put(s, "corrupt_streams", stats.corruptStreams.sum());
                ByteBuf out = ctx.alloc().buffer();
                int start = Wire.beginFrame(out, r.id(), Status.OK.code());
                Wire.writeRecord(out, s);
                Wire.endFrame(out, start);
                ctx.write(out, ctx.voidPromise());
                break;
            }
            default:
                throw new AssertionError(r.op());
        }
    }

    private static void put(Map<String, byte[]> stats, String name, long value) {
        stats.put(name, Long.toString(value).getBytes(StandardCharsets.US_ASCII));
    }

    private static void writeEmpty(ChannelHandlerContext ctx, long id, Status status) {
        ByteBuf out = ctx.alloc().buffer(Frame.LENGTH_BYTES + Frame.HEADER_BYTES);
        Wire.endFrame(out, Wire.beginFrame(out, id, status.code()));
        ctx.write(out, ctx.voidPromise());
    }

    private static void writeError(ChannelHandlerContext ctx, long id, Status status, String message) {
        ByteBuf out = ctx.alloc().buffer();
        int start = Wire.beginFrame(out, id, status.code());
        Wire.writeString(out, message.length() > 1000 ? message.substring(0, 1000) : message);
        Wire.endFrame(out, start);
        ctx.write(out, ctx.voidPromise());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // Back-pressure: stop taking requests while the client is not taking responses.
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        if (!ctx.channel().isWritable()) {
            ctx.flush();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            // A client that vanished: routine, and it says nothing about this server.
            logger.debug("{}: closing after I/O error: {}", ctx.channel(), cause.toString());
        } else {
            logger.warn("{}: closing after unexpected error", ctx.channel(), cause);
        }
        ctx.close();
    }
}
