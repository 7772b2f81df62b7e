/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A plain Netty application, as a new user writes one: a length-prefixed codec, heap buffers, one event loop on
 * each side, the transport chosen where the bootstrap names its group and channel class. Its scenarios are the
 * patterns applications have: (a) a ping-pong driven by the client's event loop, (b) requests from an
 * application thread that writes and waits for the answer's future, (c) a bulk transfer written from an
 * application thread with a CRC checked at both ends, (d) the ping-pong of (a) on one connection among 100 idle
 * ones; and what 100 idle connections cost in CPU.
 */
final class NettyAppFramework implements Framework {
    static final String ID = "netty";
    private static final int MAX_FRAME = 16 * 1024 * 1024;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Scenario> scenarios() {
        return List.of(Scenario.loopPingPong(16, 0), Scenario.calls(16, 1), Scenario.upload(64 * 1024),
                Scenario.loopPingPong(16, 100), Scenario.idle(100));
    }

    @Override
    public boolean supports(BenchTransport transport) {
        return true;
    }

    @Override
    public List<String> jvmOptions(BenchTransport transport) {
        return List.of();
    }

    /** The codec both ends use: a 4-byte length before each frame. */
    static void addCodec(ChannelPipeline pipeline) {
        pipeline.addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4), new LengthFieldPrepender(4));
    }

    @Override
    public Server serve(BenchTransport transport) throws Exception {
        EventLoopGroup group = transport.netty().newEventLoopGroup(1, "netty-app-server");
        Channel listener = new ServerBootstrap().group(group).channel(transport.netty().serverSocketChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        addCodec(ch.pipeline());
                        ch.pipeline().addLast(new NettyAppServerHandler());
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        return new Server() {
            @Override
            public int port() {
                return ((InetSocketAddress) listener.localAddress()).getPort();
            }

            @Override
            public void close() {
                listener.close().syncUninterruptibly();
                group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            }
        };
    }

    @Override
    public Client connect(BenchTransport transport, int port) throws Exception {
        EventLoopGroup group = transport.netty().newEventLoopGroup(1, "netty-app-client");
        Bootstrap bootstrap = new Bootstrap().group(group).channel(transport.netty().socketChannel())
                .remoteAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        NettyAppClientHandler handler = new NettyAppClientHandler();
        Channel channel;
        try {
            channel = bootstrap.clone().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    addCodec(ch.pipeline());
                    ch.pipeline().addLast(handler);
                }
            }).connect().sync().channel();
        } catch (Exception e) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            throw e;
        }
        return new NettyAppClient(channel, handler, bootstrap, group);
    }

    /** Connections that only connect: each has the codec and nothing to say. */
    static AutoCloseable openIdle(Bootstrap bootstrap, int count) throws InterruptedException {
        List<Channel> idle = new ArrayList<>();
        AutoCloseable closeAll = () -> {
            for (Channel ch : idle) {
                ch.close().syncUninterruptibly();
            }
        };
        try {
            for (int i = 0; i < count; i++) {
                idle.add(bootstrap.clone().handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        addCodec(ch.pipeline());
                    }
                }).connect().sync().channel());
            }
        } catch (InterruptedException | RuntimeException e) {
            idle.forEach(Channel::close);
            throw e;
        }
        return closeAll;
    }
}
