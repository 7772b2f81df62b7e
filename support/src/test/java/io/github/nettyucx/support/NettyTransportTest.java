/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.support;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.CharsetUtil;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NettyTransportTest {
    @Test
    void namesAreTheCommandLineNames() {
        for (NettyTransport t : NettyTransport.values()) {
            assertEquals(t, NettyTransport.of(t.id()));
        }
        assertEquals(NettyTransport.IO_URING, NettyTransport.of(" IO-URING "));
        assertEquals(NettyTransport.UCX_TCP, NettyTransport.of("ucx_tcp"));
        assertEquals(NettyTransport.UCX, NettyTransport.of("UCX"));
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NettyTransport.of("rdma"));
        assertEquals("unknown transport 'rdma' (choose nio, epoll, io_uring, ucx, ucx-tcp)", e.getMessage());
    }

    @Test
    void onlyUcxTcpNeedsAnEnvironment() {
        assertEquals(Map.of("UCX_TLS", "tcp"), NettyTransport.UCX_TCP.environment());
        assertTrue(NettyTransport.UCX.isUcx());
        assertTrue(NettyTransport.UCX_TCP.isUcx());
        for (NettyTransport t : new NettyTransport[] {NettyTransport.NIO, NettyTransport.EPOLL,
            NettyTransport.IO_URING, NettyTransport.UCX}) {
            assertEquals(Map.of(), t.environment(), t.id());
            if (t != NettyTransport.UCX) {
                assertFalse(t.isUcx(), t.id());
            }
        }
    }

    @Test
    void nioIsAlwaysAvailable() {
        assertNull(NettyTransport.NIO.unavailabilityCause());
        assertNull(NettyTransport.NIO.unavailabilityReason());
        NettyTransport.NIO.ensureAvailable();
    }

    @Test
    void ucxTcpInAJvmStartedWithoutUcxTlsSaysWhatIsMissing() {
        Assumptions.assumeFalse("tcp".equals(System.getenv("UCX_TLS")), "this JVM runs with UCX_TLS=tcp");
        requireUcx();
        String reason = NettyTransport.UCX_TCP.unavailabilityReason();
        assertNotNull(reason);
        assertTrue(reason.contains("UCX_TLS=tcp"), reason);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> NettyTransport.UCX_TCP.newEventLoopGroup(1));
        assertTrue(e.getMessage().startsWith("transport ucx-tcp is not available here: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("(choose another transport, e.g. nio)"), e.getMessage());
        assertNull(NettyTransport.UCX_TCP.unavailabilityReasonForChildJvm(),
                "a child started with UCX_TLS=tcp can run it wherever UCX runs");
    }

    @Test
    void forTheOtherTransportsAChildJvmIsLikeThisOne() {
        for (NettyTransport t : new NettyTransport[] {NettyTransport.NIO, NettyTransport.EPOLL,
            NettyTransport.IO_URING, NettyTransport.UCX}) {
            assertEquals(t.unavailabilityReason(), t.unavailabilityReasonForChildJvm(), t.id());
        }
    }

    /** The group and the channel classes of each transport fit together: one echo over loopback. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = NettyTransport.class, names = {"NIO", "EPOLL", "IO_URING", "UCX"})
    void groupAndChannelsCarryBytes(NettyTransport transport) throws Exception {
        if (transport == NettyTransport.UCX) {
            requireUcx();
        }
        Assumptions.assumeTrue(transport.isAvailable(), () -> transport.id() + ": " + transport.unavailabilityReason());
        EventLoopGroup group = transport.newEventLoopGroup(1, "support-test");
        try {
            Channel server = new ServerBootstrap().group(group).channel(transport.serverSocketChannel())
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
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            CompletableFuture<String> echoed = new CompletableFuture<>();
            Channel client = new Bootstrap().group(group).channel(transport.socketChannel())
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf buf = (ByteBuf) msg;
                            echoed.complete(buf.toString(CharsetUtil.US_ASCII));
                            buf.release();
                        }
                    }).connect(server.localAddress()).sync().channel();
            client.writeAndFlush(Unpooled.copiedBuffer("ping", CharsetUtil.US_ASCII)).sync();
            assertEquals("ping", echoed.get(30, TimeUnit.SECONDS));
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** UCX must load where the build runs (-Dnettyucx.requireUcx=false lets these tests skip instead). */
    private static void requireUcx() {
        String reason = NettyTransport.UCX.unavailabilityReason();
        if (reason != null && Boolean.parseBoolean(System.getProperty("nettyucx.requireUcx", "true"))) {
            throw new AssertionError("UCX is required here but unavailable: " + reason);
        }
        Assumptions.assumeTrue(reason == null, () -> "UCX is not available: " + reason);
    }
}
