/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The child process of {@link PeerDeathTest}: a peer that streams data continuously until it is killed.
 *
 * <pre>
 *   PeerDeathPeer TRANSPORT server        binds 127.0.0.1:0, prints "PORT n", streams to every client
 *   PeerDeathPeer TRANSPORT client PORT   connects to 127.0.0.1:PORT, prints "CONNECTED", streams to it
 * </pre>
 *
 * It exits by itself when its standard input reaches end of file (the test process went away) or after two
 * minutes, so that it can never outlive a crashed test run for long.
 */
public final class PeerDeathPeer {
    static final String PORT_LINE = "PORT ";
    static final String CONNECTED_LINE = "CONNECTED";
    private static final int CHUNK = 64 * 1024;

    private PeerDeathPeer() {
    }

    public static void main(String[] args) throws Exception {
        TestTransport transport = TestTransport.valueOf(args[0]);
        startWatchdog();
        EventLoopGroup group = transport.newGroup(1);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        if ("server".equals(args[1])) {
            Channel server = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
                    .childHandler(new Streamer())
                    .bind(new InetSocketAddress(loopback, 0)).sync().channel();
            System.out.println(PORT_LINE + ((InetSocketAddress) server.localAddress()).getPort());
            System.out.flush();
            server.closeFuture().sync();
        } else {
            int port = Integer.parseInt(args[2]);
            Channel client = new Bootstrap().group(group).channel(transport.clientChannelClass())
                    .handler(new Streamer())
                    .connect(new InetSocketAddress(loopback, port)).sync().channel();
            System.out.println(CONNECTED_LINE);
            System.out.flush();
            client.closeFuture().sync();
        }
        group.shutdownGracefully();
    }

    private static void startWatchdog() {
        daemon("peer-death-stdin-watch", () -> {
            try {
                // The parent never writes to our stdin: read() returns only at end of file (parent gone).
                while (System.in.read() >= 0) {
                    // Ignore.
                }
            } catch (IOException e) {
                // Treat like end of file.
            }
            Runtime.getRuntime().halt(3);
        });
        daemon("peer-death-lifetime", () -> {
            try {
                Thread.sleep(120_000);
            } catch (InterruptedException e) {
                // Exit anyway.
            }
            Runtime.getRuntime().halt(4);
        });
    }

    private static void daemon(String name, Runnable task) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
    }

    /** Writes chunks while the channel is writable, forever; discards what it reads. */
    @ChannelHandler.Sharable
    private static final class Streamer extends WritesWhileWritable {
        Streamer() {
            super(CHUNK);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
