/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Tries each step a UCX application takes and prints how each ended, one line per step, for tests that break
 * UCX's resources in a child process: {@code AVAILABLE true|false cause}, {@code GROUP ok|failed cause} (an
 * event loop and a listening server channel), optionally {@code CONNECT ok|failed cause} (to HOST PORT),
 * then {@code DONE}. Reaching DONE means nothing crashed.
 */
final class UcxProbe {
    static final String AVAILABLE = "AVAILABLE ";
    static final String GROUP = "GROUP ";
    static final String CONNECT = "CONNECT ";
    static final String DONE = "DONE";

    private UcxProbe() {
    }

    static void run(String[] args) throws InterruptedException {
        ReliabilityPeer.print(AVAILABLE + Ucx.isAvailable()
                + (Ucx.isAvailable() ? "" : " " + Ucx.unavailabilityCause()));
        if (!Ucx.isAvailable()) {
            ReliabilityPeer.print(DONE);
            return;
        }
        EventLoopGroup group = null;
        try {
            group = new UcxEventLoopGroup(1);
            ChannelFuture bound = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                    .childHandler(new ChannelInboundHandlerAdapter())
                    .bind(new InetSocketAddress("127.0.0.1", 0)).await();
            ReliabilityPeer.print(GROUP + (bound.isSuccess() ? "ok" : "failed " + describe(bound.cause())));
            if (bound.isSuccess() && args.length > 2) {
                ChannelFuture connect = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                        .handler(new ChannelInboundHandlerAdapter())
                        .connect(new InetSocketAddress(args[1], Integer.parseInt(args[2]))).await();
                ReliabilityPeer.print(CONNECT + (connect.isSuccess() ? "ok" : "failed " + describe(connect.cause())));
            }
        } catch (Throwable t) {
            ReliabilityPeer.print(GROUP + "failed " + describe(t));
        } finally {
            if (group != null) {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
            }
        }
        ReliabilityPeer.print(DONE);
    }

    /** The exception and its causes on one line. */
    private static String describe(Throwable t) {
        StringBuilder out = new StringBuilder(String.valueOf(t));
        for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            out.append(" <- ").append(c);
        }
        return out.toString();
    }
}
