/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketChannelNotYetConnectedTest;
import io.netty.util.NetUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Netty's {@link SocketChannelNotYetConnectedTest} on UCX client channels.
 *
 * <p>Upstream, {@code readMustBePendingUntilChannelIsActive} connects the client under test to an NIO server built
 * inside the test body; a UCX client cannot complete its connect against a plain TCP server (there is no UCX
 * handshake), so the method is overridden with the same steps and checks against a UCX server: a {@code read()}
 * requested in {@code handlerAdded}, before the channel is active, must stay pending and deliver the server's
 * first four bytes once the channel is active.
 */
@RequireUcx
class UcxSocketChannelNotYetConnectedTest extends SocketChannelNotYetConnectedTest {

    @Override
    protected List<BootstrapFactory<Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().clientSocket();
    }

    @Test
    @Timeout(30)
    @Override
    public void readMustBePendingUntilChannelIsActive(TestInfo info) throws Throwable {
        run(info, this::readPendingUntilActiveWithUcxServer);
    }

    private void readPendingUntilActiveWithUcxServer(Bootstrap cb) throws Throwable {
        Channel server = UcxSocketTestPermutation.instance().serverSocket().get(0).newInstance()
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        ctx.writeAndFlush(Unpooled.copyInt(42));
                    }
                })
                .bind(NetUtil.LOCALHOST, 0).sync().channel();
        CountDownLatch intReceived = new CountDownLatch(1);
        Channel client = null;
        try {
            client = cb.handler(new ByteToMessageDecoder() {
                @Override
                public void handlerAdded(ChannelHandlerContext ctx) {
                    assertFalse(ctx.channel().isActive());
                    ctx.read();
                }

                @Override
                protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                    assertTrue(in.readableBytes() <= Integer.BYTES, () -> in.readableBytes() + " bytes readable");
                    if (in.readableBytes() == Integer.BYTES) {
                        assertEquals(42, in.readInt());
                        intReceived.countDown();
                    }
                }
            }).connect(server.localAddress()).sync().channel();
            intReceived.await();
        } finally {
            if (client != null) {
                client.close().sync();
            }
            server.close().sync();
        }
    }
}
