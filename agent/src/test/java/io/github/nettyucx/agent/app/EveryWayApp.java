/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent.app;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A plain Netty application that builds its event loop groups and channels in every way Netty 4.2 allows: the
 * transport-named groups, {@code MultiThreadIoEventLoopGroup} with each {@code IoHandler} factory, channels by class
 * and by a factory of its own, UDP, and the in-process local transport (which the agent leaves alone). Each way sends
 * a line to an echo server and prints {@code <way>: <what came back>}. io_uring runs where the kernel allows it, as
 * an application would check.
 */
public final class EveryWayApp {
    private EveryWayApp() {
    }

    @SuppressWarnings("deprecation")
    public static void main(String[] args) throws Exception {
        tcp("NioEventLoopGroup", new NioEventLoopGroup(2), NioServerSocketChannel.class, NioSocketChannel.class);
        if (Epoll.isAvailable()) {
            tcp("EpollEventLoopGroup", new EpollEventLoopGroup(2), EpollServerSocketChannel.class,
                    EpollSocketChannel.class);
            tcp("MultiThreadIoEventLoopGroup(EpollIoHandler)",
                    new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory()), EpollServerSocketChannel.class,
                    EpollSocketChannel.class);
        } else {
            System.out.println("epoll: unavailable");
        }
        tcp("MultiThreadIoEventLoopGroup(NioIoHandler), channelFactory",
                new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory()), NioServerSocketChannel::new,
                NioSocketChannel::new);
        if (IoUring.isAvailable()) {
            tcp("MultiThreadIoEventLoopGroup(IoUringIoHandler)",
                    new MultiThreadIoEventLoopGroup(2, IoUringIoHandler.newFactory()),
                    IoUringServerSocketChannel.class, IoUringSocketChannel.class);
        } else {
            System.out.println("io_uring: unavailable");
        }
        udp();
        local();
        System.out.println("done");
    }

    /** An echo server and a client on {@code group}, channels by class ({@code Bootstrap.channel}). */
    private static void tcp(String way, EventLoopGroup group, Class<? extends ServerChannel> server,
                            Class<? extends Channel> client) throws Exception {
        tcp(way, group, new ServerBootstrap().group(group).channel(server),
                new Bootstrap().group(group).channel(client));
    }

    /** An echo server and a client on {@code group}, channels from the application's own factories. */
    private static void tcp(String way, EventLoopGroup group, ChannelFactory<ServerChannel> server,
                            ChannelFactory<Channel> client) throws Exception {
        tcp(way, group, new ServerBootstrap().group(group).channelFactory(server),
                new Bootstrap().group(group).channelFactory(client));
    }

    private static void tcp(String way, EventLoopGroup group, ServerBootstrap sb, Bootstrap b) throws Exception {
        try {
            Channel s = sb.childHandler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                            ctx.writeAndFlush(msg.retain());
                        }
                    });
                }
            }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            System.out.println(way + ": " + roundTrip(b, s.localAddress(), "ping over " + way));
            s.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    private static String roundTrip(Bootstrap b, SocketAddress to, String text) throws Exception {
        CompletableFuture<String> back = new CompletableFuture<>();
        StringBuilder received = new StringBuilder();
        Channel c = b.handler(new SimpleChannelInboundHandler<ByteBuf>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                received.append(msg.toString(StandardCharsets.UTF_8));
                if (received.length() >= text.length()) {
                    back.complete(received.toString());
                }
            }
        }).connect(to).sync().channel();
        c.writeAndFlush(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
        String result = back.get(30, TimeUnit.SECONDS);
        c.close().sync();
        return result;
    }

    /** A UDP echo on a NIO group: under the agent, both sockets are UCX's datagram channel. */
    @SuppressWarnings("deprecation")
    private static void udp() throws Exception {
        EventLoopGroup group = new NioEventLoopGroup(1);
        try {
            Channel echo = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                    .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                            ctx.writeAndFlush(new DatagramPacket(p.content().retain(), p.sender()));
                        }
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            CompletableFuture<String> back = new CompletableFuture<>();
            Channel sender = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                    .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                            back.complete(p.content().toString(StandardCharsets.UTF_8));
                        }
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            sender.writeAndFlush(new DatagramPacket(Unpooled.copiedBuffer("datagram", StandardCharsets.UTF_8),
                    (InetSocketAddress) echo.localAddress()));
            System.out.println("NioDatagramChannel: " + back.get(30, TimeUnit.SECONDS));
            sender.close().sync();
            echo.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** Netty's in-process transport: nothing for UCX to carry, and the agent must not touch it. */
    private static void local() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
        try {
            LocalAddress address = new LocalAddress("every-way");
            Channel s = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                                @Override
                                protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                                    ctx.writeAndFlush(msg.retain());
                                }
                            });
                        }
                    }).bind(address).sync().channel();
            Bootstrap b = new Bootstrap().group(group).channel(LocalChannel.class);
            System.out.println("LocalIoHandler: " + roundTrip(b, address, "ping over local"));
            s.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
