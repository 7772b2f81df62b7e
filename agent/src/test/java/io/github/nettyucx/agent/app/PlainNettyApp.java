/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent.app;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * An application written against plain Netty, as users write them: an echo server and client, an HTTP server and
 * client, and a static file server (a {@code DefaultFileRegion} behind Netty's HTTP codec), all on
 * {@code NioEventLoopGroup}. It knows nothing of UCX. Each part prints one line with what it received, which must
 * be the same with the agent as without. Arguments: the parts to run ({@code echo}, {@code http}, {@code file});
 * the echo part uses only what Netty 4.1 also has.
 */
public final class PlainNettyApp {
    private PlainNettyApp() {
    }

    public static void main(String[] args) throws Exception {
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup workers = new NioEventLoopGroup(2);
        try {
            for (String part : args) {
                switch (part) {
                    case "echo":
                        echo(boss, workers);
                        break;
                    case "http":
                        http(boss, workers);
                        break;
                    case "file":
                        file(boss, workers);
                        break;
                    default:
                        throw new IllegalArgumentException(part);
                }
            }
        } finally {
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
        System.out.println("done");
    }

    /** 64 KiB of deterministic bytes, echoed back: the client prints their CRC once all came back. */
    private static void echo(EventLoopGroup boss, EventLoopGroup workers) throws Exception {
        byte[] data = new byte[64 * 1024];
        new Random(42).nextBytes(data);
        Channel server = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                                ctx.writeAndFlush(msg.retain());
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        CompletableFuture<Long> crc = new CompletableFuture<>();
        Channel client = new Bootstrap().group(workers).channel(NioSocketChannel.class)
                .handler(new SimpleChannelInboundHandler<ByteBuf>() {
                    private final CRC32 sum = new CRC32();
                    private int received;

                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                        byte[] bytes = new byte[msg.readableBytes()];
                        msg.readBytes(bytes);
                        sum.update(bytes);
                        received += bytes.length;
                        if (received == data.length) {
                            crc.complete(sum.getValue());
                        }
                    }
                }).connect(server.localAddress()).sync().channel();
        for (int off = 0; off < data.length; off += 4096) {
            client.write(Unpooled.wrappedBuffer(data, off, 4096));
        }
        client.flush();
        System.out.println("echo: " + data.length + " bytes, crc " + crc.get(30, TimeUnit.SECONDS));
        client.close().sync();
        server.close().sync();
    }

    private static void http(EventLoopGroup boss, EventLoopGroup workers) throws Exception {
        Channel server = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                                new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
                                        byte[] body = ("hello " + req.uri()).getBytes(StandardCharsets.UTF_8);
                                        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                                HttpResponseStatus.OK, Unpooled.wrappedBuffer(body));
                                        HttpUtil.setContentLength(res, body.length);
                                        ctx.writeAndFlush(res);
                                    }
                                });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        FullHttpResponse res = get(workers, server, "/greeting");
        System.out.println("http: " + res.status().code() + " " + res.content().toString(StandardCharsets.UTF_8));
        res.release();
        server.close().sync();
    }

    /** A 1 MiB file sent as a {@code DefaultFileRegion}, as Netty's static file server example does. */
    private static void file(EventLoopGroup boss, EventLoopGroup workers) throws Exception {
        Path path = Files.createTempFile("plain-netty-app", ".bin");
        byte[] data = new byte[1 << 20];
        new Random(7).nextBytes(data);
        Files.write(path, data);
        Channel server = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 10),
                                new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req)
                                            throws Exception {
                                        RandomAccessFile raf = new RandomAccessFile(path.toFile(), "r");
                                        long length = raf.length();
                                        DefaultHttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1,
                                                HttpResponseStatus.OK);
                                        HttpUtil.setContentLength(res, length);
                                        ctx.write(res);
                                        ctx.write(new DefaultFileRegion(raf.getChannel(), 0, length));
                                        ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                                    }
                                });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        FullHttpResponse res = get(workers, server, "/file.bin");
        byte[] body = new byte[res.content().readableBytes()];
        res.content().readBytes(body);
        CRC32 crc = new CRC32();
        crc.update(body);
        System.out.println("file: " + res.status().code() + " " + body.length + " bytes, crc " + crc.getValue());
        res.release();
        server.close().sync();
        Files.delete(path);
    }

    private static FullHttpResponse get(EventLoopGroup workers, Channel server, String uri) throws Exception {
        CompletableFuture<FullHttpResponse> response = new CompletableFuture<>();
        Channel client = new Bootstrap().group(workers).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(4 << 20),
                                new SimpleChannelInboundHandler<FullHttpResponse>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse res) {
                                        response.complete(res.retain());
                                    }
                                });
                    }
                }).connect(server.localAddress()).sync().channel();
        DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri);
        req.headers().set(HttpHeaderNames.HOST, "localhost");
        client.writeAndFlush(req);
        FullHttpResponse res = response.get(30, TimeUnit.SECONDS);
        client.close().sync();
        return res;
    }
}
