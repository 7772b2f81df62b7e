/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketShutdownOutputByPeerTest;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.List;

/**
 * Netty's {@link SocketShutdownOutputByPeerTest} against a UCX server channel.
 *
 * <p>Upstream, the peer is a plain {@link java.net.Socket}, which cannot speak UCX. The test's peer hooks
 * ({@code newSocket}, {@code connect}, {@code write}, {@code shutdownOutput}, {@code close}) are overridden so
 * that the peer is a {@link UcxSocketChannel} instead, used like a blocking socket; the test bodies (what the
 * server channel must observe when its peer shuts down its output, with and without ALLOW_HALF_CLOSURE) run
 * unchanged.
 */
@RequireUcx
class UcxSocketShutdownOutputByPeerTest extends SocketShutdownOutputByPeerTest {

    /** Stands in for the plain socket of the upstream test; only carries the UCX peer channel. */
    private static final class UcxPeer extends Socket {
        volatile SocketChannel channel;
    }

    @Override
    protected List<BootstrapFactory<ServerBootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().serverSocket();
    }

    @Override
    protected Socket newSocket() {
        return new UcxPeer();
    }

    @Override
    protected void connect(Socket s, SocketAddress address) throws IOException {
        Bootstrap b = UcxSocketTestPermutation.instance().clientSocket().get(0).newInstance()
                // Like a plain socket, the peer keeps its input open when the server shuts down its output.
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ReferenceCountUtil.release(msg);
                    }
                });
        ((UcxPeer) s).channel = (SocketChannel) b.connect(address).syncUninterruptibly().channel();
    }

    @Override
    protected void write(Socket s, int data) throws IOException {
        ((UcxPeer) s).channel.writeAndFlush(Unpooled.buffer(1).writeByte(data)).syncUninterruptibly();
    }

    @Override
    protected void shutdownOutput(Socket s) throws IOException {
        ((UcxPeer) s).channel.shutdownOutput().syncUninterruptibly();
    }

    @Override
    protected void close(Socket s) throws IOException {
        SocketChannel ch = ((UcxPeer) s).channel;
        if (ch != null) {
            ch.close().syncUninterruptibly();
        }
        s.close();
    }
}
