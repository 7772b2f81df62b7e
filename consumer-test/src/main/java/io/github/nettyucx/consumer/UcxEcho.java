/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.consumer;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What a user of netty-ucx writes on day one: an echo server and a client on the UCX transport, in one process.
 * The client sends a few messages of different sizes, one at a time, and checks that each comes back whole.
 */
public final class UcxEcho {
    /** Message sizes: a byte, a small message, a page, more than one slot, a megabyte. */
    private static final int[] SIZES = {1, 100, 4096, 100_000, 1 << 20};
    private static final long TIMEOUT_SECONDS = 30;

    private UcxEcho() {
    }

    /** Runs the echo; exits with status 1 if anything went wrong. */
    public static void main(String[] args) {
        try {
            run();
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
    }

    /**
     * Runs the echo and returns the client channel's UCX lanes; throws if UCX cannot run here or any message did
     * not come back as it was sent.
     */
    public static String run() throws Exception {
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
                            ch.pipeline().addLast(new EchoHandler());
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            Received received = new Received();
            UcxSocketChannel client = (UcxSocketChannel) new Bootstrap()
                    .group(group)
                    .channel(UcxSocketChannel.class)
                    .handler(received)
                    .connect(server.localAddress()).sync().channel();
            try {
                Random random = new Random(18);
                for (int size : SIZES) {
                    byte[] message = new byte[size];
                    random.nextBytes(message);
                    client.writeAndFlush(Unpooled.wrappedBuffer(message)).sync();
                    byte[] echoed = received.take(size);
                    if (!Arrays.equals(message, echoed)) {
                        throw new IllegalStateException("the echo of a " + size + "-byte message differs from it");
                    }
                    System.out.println("echoed " + size + " bytes");
                }
                String lanes = client.ucxLanes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                System.out.println("ucxLanes():" + System.lineSeparator() + lanes);
                return lanes;
            } finally {
                client.close().sync();
                server.close().sync();
            }
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }

    /** The server's handler: writes back what it reads. */
    private static final class EchoHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            cause.printStackTrace();
            ctx.close();
        }
    }

    /** The client's handler: keeps what arrives (byte arrays), and any failure, for the sending thread. */
    private static final class Received extends SimpleChannelInboundHandler<ByteBuf> {
        private final BlockingQueue<Object> arrivals = new LinkedBlockingQueue<>();

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
            arrivals.add(ByteBufUtil.getBytes(msg));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            arrivals.add(new IOException("the connection closed"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            arrivals.add(cause);
            ctx.close();
        }

        /** The next {@code length} bytes received; fails on a timeout, an error, or more bytes than that. */
        byte[] take(int length) throws Exception {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(length);
            while (bytes.size() < length) {
                Object arrival = arrivals.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (arrival == null) {
                    throw new IllegalStateException("no echo within " + TIMEOUT_SECONDS + " s after "
                            + bytes.size() + " of " + length + " bytes");
                }
                if (arrival instanceof Throwable) {
                    throw new IllegalStateException("the client failed after " + bytes.size() + " of " + length
                            + " bytes", (Throwable) arrival);
                }
                bytes.write((byte[]) arrival);
            }
            if (bytes.size() != length) {
                throw new IllegalStateException(bytes.size() + " bytes came back for a " + length + "-byte message");
            }
            return bytes.toByteArray();
        }
    }
}
