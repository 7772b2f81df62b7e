/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import io.github.nettyucx.kvstore.protocol.DecodedFrame;
import io.github.nettyucx.kvstore.protocol.Frame;
import io.github.nettyucx.kvstore.protocol.FrameDecoderHandler;
import io.github.nettyucx.kvstore.protocol.Status;
import io.github.nettyucx.kvstore.protocol.Wire;
import io.github.nettyucx.support.NettyTransport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;

import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A test connection that sends whatever bytes it is given and collects decoded response frames. */
final class RawConnection implements AutoCloseable {
    /** A response as the test sees it: id, status and the error message, if any. */
    record Response(long id, Status status, String message) {
    }

    private final Channel channel;
    private final BlockingQueue<Response> responses = new LinkedBlockingQueue<>();

    RawConnection(EventLoopGroup group, NettyTransport transport, InetSocketAddress server)
            throws InterruptedException {
        channel = new Bootstrap().group(group).channel(transport.socketChannel())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FrameDecoderHandler(Frame.DEFAULT_MAX_FRAME_LENGTH),
                                new SimpleChannelInboundHandler<DecodedFrame>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, DecodedFrame msg)
                                            throws Exception {
                                        Frame f = (Frame) msg;
                                        Status status = Status.of(f.code());
                                        String message = status != null && status.isError()
                                                ? Wire.readString(f.payload().duplicate()) : null;
                                        responses.add(new Response(f.requestId(), status, message));
                                    }
                                });
                    }
                })
                .connect(server).sync().channel();
    }

    void send(ByteBuf bytes) {
        channel.writeAndFlush(bytes).syncUninterruptibly();
    }

    Response next() throws InterruptedException {
        Response r = responses.poll(20, TimeUnit.SECONDS);
        assertNotNull(r, "no response within 20 s");
        return r;
    }

    /** Liveness bound: the server must close a corrupt connection, not leave it hanging. */
    void awaitClosedByServer() {
        assertTrue(channel.closeFuture().awaitUninterruptibly(20, TimeUnit.SECONDS),
                "server did not close the connection within 20 s");
    }

    Channel channel() {
        return channel;
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }
}
