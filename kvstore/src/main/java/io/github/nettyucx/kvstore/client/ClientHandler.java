/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import io.github.nettyucx.kvstore.protocol.CorruptStream;
import io.github.nettyucx.kvstore.protocol.Frame;
import io.github.nettyucx.kvstore.protocol.FrameTooLarge;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The requests in flight on one connection, matched to responses by id. Everything here runs on
 * the channel's event loop, so the map needs no locking. Ids are handed out in write order and all
 * requests share one timeout, so the map's insertion order is also deadline order and the timeout
 * sweep stops at the first request that is still in time.
 */
final class ClientHandler extends ChannelDuplexHandler {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ClientHandler.class);

    private final InetSocketAddress server;
    private final int maxFrameLength;
    private final long sweepMillis;
    private final Map<Long, PendingRequest<?>> pending = new LinkedHashMap<>();
    private long nextId = 1;
    private ScheduledFuture<?> sweep;

    ClientHandler(InetSocketAddress server, int maxFrameLength, long timeoutMillis) {
        this.server = server;
        this.maxFrameLength = maxFrameLength;
        // Time out late by at most a quarter of the timeout, without a timer per request.
        this.sweepMillis = Math.max(1, Math.min(250, timeoutMillis / 4));
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        sweep = ctx.executor().scheduleAtFixedRate(this::expire, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof PendingRequest)) {
            ctx.write(msg, promise);
            return;
        }
        PendingRequest<?> request = (PendingRequest<?>) msg;
        if (request.isDone()) {
            promise.trySuccess();
            return;
        }
        long id = nextId++;
        ByteBuf out = ctx.alloc().buffer(request.sizeHint());
        try {
            request.encode(out, id);
        } catch (RuntimeException e) {
            out.release();
            request.fail(new KvException("cannot encode " + request.op + ": " + e.getMessage(), e));
            promise.trySuccess();
            return;
        }
        int frameLength = out.readableBytes() - Frame.LENGTH_BYTES;
        if (frameLength > maxFrameLength) {
            out.release();
            request.fail(new KvException(request.op + " request of " + frameLength
                    + " bytes exceeds the maximum frame of " + maxFrameLength
                    + " bytes; send smaller records or raise the frame limit on client and server"));
            promise.trySuccess();
            return;
        }
        pending.put(id, request);
        ctx.write(out, promise);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Frame) {
                Frame frame = (Frame) msg;
                PendingRequest<?> request = pending.remove(frame.requestId());
                // No match: the request timed out already, the answer is of no use.
                if (request != null) {
                    request.complete(frame);
                }
            } else if (msg instanceof FrameTooLarge) {
                FrameTooLarge tooLarge = (FrameTooLarge) msg;
                PendingRequest<?> request = pending.remove(tooLarge.requestId());
                if (request != null) {
                    request.fail(new KvException("response from " + server + ": " + tooLarge.message()));
                }
            } else if (msg instanceof CorruptStream) {
                logger.warn("{}: closing the connection to {}: {}", ctx.channel(), server,
                        ((CorruptStream) msg).reason());
                ctx.close();
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (sweep != null) {
            sweep.cancel(false);
        }
        if (!pending.isEmpty()) {
            KvUnavailableException cause = new KvUnavailableException("connection to " + server + " closed with "
                    + pending.size() + " requests in flight", null);
            List<PendingRequest<?>> failed = new ArrayList<>(pending.values());
            pending.clear();
            for (PendingRequest<?> r : failed) {
                r.fail(cause);
            }
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        logger.debug("{}: closing the connection to {} after: {}", ctx.channel(), server, cause.toString());
        ctx.close();
    }

    private void expire() {
        long now = System.nanoTime();
        Iterator<PendingRequest<?>> it = pending.values().iterator();
        while (it.hasNext()) {
            PendingRequest<?> r = it.next();
            if (now - r.deadlineNanos < 0) {
                break;
            }
            it.remove();
            r.fail(new KvTimeoutException(r.op + " got no response from " + server + " within the request timeout"));
        }
    }

    /** Requests waiting for a response (event loop only; for tests). */
    int inFlight() {
        return pending.size();
    }
}
