/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.consumer.modulepath;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An echo server and client on the UCX transport, run from the module path: it first checks that this class, the
 * transport and the native jar are named modules of the boot layer (the latter two explicit ones, with module
 * descriptors) and that the class path is empty, so that the JNI library can only have come from the native jar as
 * a module. Run from a jlink image too (jlink-echo.sh). Exits with status 1 on any failure.
 */
public final class ModulePathEcho {
    private static final String TRANSPORT_MODULE = "io.github.nettyucx.transport";
    /** The native jar's module, {@code io.github.nettyucx.transport.linux.<arch>}. */
    private static final String NATIVE_MODULE_PREFIX = "io.github.nettyucx.transport.linux.";
    private static final int[] SIZES = {1, 4096, 1 << 20};
    private static final long TIMEOUT_SECONDS = 30;

    private ModulePathEcho() {
    }

    public static void main(String[] args) {
        try {
            checkModules();
            echo();
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
    }

    private static void checkModules() {
        check(ModulePathEcho.class.getModule().isNamed(), "the consumer is not a named module");
        check(TRANSPORT_MODULE.equals(Ucx.class.getModule().getName()),
                "the transport is in module " + Ucx.class.getModule() + ", not " + TRANSPORT_MODULE);
        check(!Ucx.class.getModule().getDescriptor().isAutomatic(), "the transport is an automatic module");
        Module nativeModule = ModuleLayer.boot().modules().stream()
                .filter(module -> module.getName().startsWith(NATIVE_MODULE_PREFIX)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no module " + NATIVE_MODULE_PREFIX + "* is loaded"));
        check(!nativeModule.getDescriptor().isAutomatic(), nativeModule + " is an automatic module");
        String classPath = System.getProperty("java.class.path", "");
        check(classPath.isEmpty(), "the class path is not empty: " + classPath);
        System.out.println("modules: " + ModulePathEcho.class.getModule().getName() + ", " + TRANSPORT_MODULE + ", "
                + nativeModule.getName() + " (explicit modules); class path empty");
    }

    private static void echo() throws Exception {
        Ucx.ensureAvailability();
        System.out.println("libucp " + Ucx.ucxVersion());
        EventLoopGroup group = new UcxEventLoopGroup(2);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(UcxServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    ctx.writeAndFlush(msg);
                                }
                            });
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            Receiver receiver = new Receiver();
            Channel client = new Bootstrap()
                    .group(group)
                    .channel(UcxSocketChannel.class)
                    .handler(receiver)
                    .connect(server.localAddress()).sync().channel();
            try {
                Random random = new Random(30);
                for (int size : SIZES) {
                    byte[] message = new byte[size];
                    random.nextBytes(message);
                    CompletableFuture<byte[]> echoed = receiver.expect(size);
                    client.writeAndFlush(Unpooled.wrappedBuffer(message)).sync();
                    check(Arrays.equals(message, echoed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)),
                            "the echo of a " + size + "-byte message differs from it");
                    System.out.println("echoed " + size + " bytes");
                }
            } finally {
                client.close().sync();
                server.close().sync();
            }
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }

    private static void check(boolean condition, String failure) {
        if (!condition) {
            throw new IllegalStateException(failure);
        }
    }

    /** The client's handler: gathers the bytes of one echo at a time, on the channel's event loop. */
    private static final class Receiver extends SimpleChannelInboundHandler<ByteBuf> {
        private volatile CompletableFuture<byte[]> pending;
        private byte[] bytes;
        private int received;

        /** The next {@code length} bytes, called before the message is sent. */
        CompletableFuture<byte[]> expect(int length) {
            bytes = new byte[length];
            received = 0;
            CompletableFuture<byte[]> future = new CompletableFuture<>();
            pending = future;
            return future;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
            int length = msg.readableBytes();
            if (received + length > bytes.length) {
                pending.completeExceptionally(new IllegalStateException("more bytes came back than were sent"));
                return;
            }
            msg.readBytes(bytes, received, length);
            received += length;
            if (received == bytes.length) {
                pending.complete(bytes);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            pending.completeExceptionally(new IllegalStateException("the connection closed"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            pending.completeExceptionally(cause);
            ctx.close();
        }
    }
}
