/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;

/** {@link NettyAppFramework}'s client: one connection, used by application threads and by its event loop. */
final class NettyAppClient implements Framework.Client {
    private static final long ANSWER_SECONDS = 30;

    private final Channel channel;
    private final NettyAppClientHandler handler;
    private final Bootstrap bootstrap;
    private final EventLoopGroup group;
    private final Object writeOrder = new Object();

    NettyAppClient(Channel channel, NettyAppClientHandler handler, Bootstrap bootstrap, EventLoopGroup group) {
        this.channel = channel;
        this.handler = handler;
        this.bootstrap = bootstrap;
        this.group = group;
    }

    /** Writes the request from this thread and waits for the future its answer completes. */
    @Override
    public void call(byte[] body) throws Exception {
        CompletableFuture<Integer> answer = new CompletableFuture<>();
        synchronized (writeOrder) {
            handler.calls.add(answer);
            channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {NettyAppFrames.ECHO}, body));
        }
        int length = answer.get(ANSWER_SECONDS, TimeUnit.SECONDS);
        if (length != body.length) {
            throw new IllegalStateException("answer of " + length + " bytes to " + body.length);
        }
    }

    @Override
    public void loopPingPong(int bytes, LongConsumer roundTripNanos, BooleanSupplier stop) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        ChannelHandlerContext ctx = channel.pipeline().context(handler);
        channel.eventLoop().execute(() -> handler.startPingPong(ctx, bytes, roundTripNanos, stop, done));
        while (!stop.getAsBoolean()) {
            Thread.sleep(10);
        }
        done.get(ANSWER_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void upload(int chunkBytes, LongConsumer onBytes, BooleanSupplier stop) throws Exception {
        byte[] chunk = new byte[chunkBytes];
        ThreadLocalRandom.current().nextBytes(chunk);
        byte[] type = {NettyAppFrames.UPLOAD};
        CRC32C crc = new CRC32C();
        long sent = 0;
        while (!stop.getAsBoolean()) {
            if (!awaitWritable(stop)) {
                break;
            }
            crc.update(chunk);
            channel.writeAndFlush(Unpooled.wrappedBuffer(type, chunk));
            sent += chunkBytes;
            onBytes.accept(chunkBytes);
        }
        CompletableFuture<Boolean> verdict = handler.expectFinish();
        channel.writeAndFlush(Unpooled.buffer(17).writeByte(NettyAppFrames.FINISH).writeLong(crc.getValue())
                .writeLong(sent));
        if (!verdict.get(ANSWER_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the server's CRC or byte count of the transfer differs from ours ("
                    + sent + " bytes)");
        }
    }

    /** Waits until the channel takes more writes; false when {@code stop} came first. */
    private boolean awaitWritable(BooleanSupplier stop) throws InterruptedException {
        synchronized (handler.writability) {
            while (!channel.isWritable()) {
                if (stop.getAsBoolean() || !channel.isActive()) {
                    return false;
                }
                handler.writability.wait(10);
            }
        }
        return true;
    }

    @Override
    public AutoCloseable idleConnections(int count) throws InterruptedException {
        return NettyAppFramework.openIdle(bootstrap, count);
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
