/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.DataPath;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A JVM started by {@link UcxConnectionSetupWithoutJfrTest} (in a runtime without {@code jdk.jfr}, or one that never
 * records): connects over UCX and says whether that module is there and how many connections the counters saw.
 */
public final class NoJfrPeer {
    private NoJfrPeer() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("jdk.jfr present: " + ModuleLayer.boot().findModule("jdk.jfr").isPresent());
        EventLoopGroup group = new UcxEventLoopGroup(1);
        try {
            Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                    .childHandler(new ChannelInboundHandlerAdapter())
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            Channel client = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .handler(new ChannelInboundHandlerAdapter()).connect(server.localAddress()).sync().channel();
            // The accepted end may become active a moment after the client's connect completes: closing the
            // client before then would end its setup as a failure instead.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (opened() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 5, java.util.concurrent.TimeUnit.SECONDS).sync();
        }
        System.out.println("connections opened: " + opened());
    }

    private static long opened() {
        long opened = 0;
        for (DataPath path : DataPath.values()) {
            opened += UcxTransportMetrics.connectionsOpened(path);
        }
        return opened;
    }
}
