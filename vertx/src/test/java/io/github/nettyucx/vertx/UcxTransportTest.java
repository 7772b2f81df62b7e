/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxDatagramChannel;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.util.Version;
import io.vertx.core.Vertx;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.impl.transports.NioTransport;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.ClientOptionsBase;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link UcxTransport} gives Vert.x: its availability, UCX event loops, UCX channels with the options Vert.x
 * sets on NIO's, and a clear refusal of Unix domain sockets.
 */
class UcxTransportTest {
    private static final UcxTransport TRANSPORT = (UcxTransport) UcxTransport.UCX.implementation();

    @TempDir
    Path dir;

    @BeforeAll
    static void ucx() {
        UcxChecks.requireUcx();
    }

    @Test
    void theTransportSaysWhatUcxSays() {
        assertEquals("ucx", UcxTransport.UCX.name());
        assertTrue(UcxTransport.UCX.available());
        assertEquals(Ucx.isAvailable(), TRANSPORT.isAvailable());
        assertSame(Ucx.unavailabilityCause(), UcxTransport.UCX.unavailabilityCause());
        assertNull(TRANSPORT.unavailabilityCause());
    }

    /** Vert.x's BOM manages Netty too, at an older version; the module keeps every Netty jar at the root pom's. */
    @Test
    void nettyIsAtTheRootPomsVersion() {
        String expected = System.getProperty("nettyucx.nettyVersion");
        assertNotNull(expected, "-Dnettyucx.nettyVersion is not set");
        Map<String, Version> versions = Version.identify();
        assertTrue(versions.containsKey("netty-transport"), versions.keySet().toString());
        for (Map.Entry<String, Version> jar : versions.entrySet()) {
            if (!jar.getKey().startsWith("netty-tcnative")) {
                assertEquals(expected, jar.getValue().artifactVersion(), jar.getKey());
            }
        }
    }

    @Test
    void vertxRunsOnUcxEventLoops() throws Exception {
        Vertx vertx = VertxInstances.onUcx();
        try {
            VertxInternal internal = (VertxInternal) vertx;
            assertSame(TRANSPORT, internal.transport());
            assertInstanceOf(UcxEventLoopGroup.class, internal.eventLoopGroup());
            assertInstanceOf(UcxEventLoopGroup.class, internal.acceptorEventLoopGroup());
        } finally {
            VertxInstances.close(vertx);
        }
    }

    @Test
    void channelsAreUcxChannels() {
        Channel client = TRANSPORT.channelFactory(false).newChannel();
        assertInstanceOf(UcxSocketChannel.class, client);
        assertTrue(client.config().getOption(UcxChannelOption.PLAIN_TCP_FALLBACK), "plain TCP fallback");
        assertEquals(false, client.config().getOption(UcxChannelOption.RECEIVE_IN_PLACE), "receive in place");
        assertInstanceOf(UcxServerSocketChannel.class, TRANSPORT.serverChannelFactory(false).newChannel());
        assertEquals(false, new UcxTransport(false).channelFactory(false).newChannel().config()
                .getOption(UcxChannelOption.PLAIN_TCP_FALLBACK), "plain TCP fallback turned off");
        assertTrue(TRANSPORT.supportFileRegion());
    }

    /** Every option Vert.x sets on NIO's client channels is set on ours, and our channel takes each one. */
    @Test
    void clientOptionsAreNiosAndUcxChannelsTakeThem() {
        ClientOptionsBase options = new NetClientOptions().setTcpNoDelay(false).setTcpKeepAlive(true)
                .setSendBufferSize(256 * 1024).setReceiveBufferSize(128 * 1024).setSoLinger(0)
                .setTrafficClass(0x10).setReuseAddress(false).setTcpFastOpen(true).setTcpQuickAck(true)
                .setTcpCork(true).setTcpUserTimeout(5000);
        Bootstrap ours = new Bootstrap();
        TRANSPORT.configure(options, 7000, false, ours);
        Bootstrap nio = new Bootstrap();
        NioTransport.INSTANCE.configure(options, 7000, false, nio);
        assertEquals(nio.config().options().keySet(), ours.config().options().keySet());
        assertTakes(TRANSPORT.channelFactory(false).newChannel(), ours.config().options());
    }

    /** The same for servers: the listener's options and those of the connections it accepts. */
    @Test
    void serverOptionsAreNiosAndUcxChannelsTakeThem() {
        NetServerOptions options = new NetServerOptions().setTcpNoDelay(false).setTcpKeepAlive(true)
                .setSendBufferSize(256 * 1024).setReceiveBufferSize(128 * 1024).setSoLinger(0)
                .setTrafficClass(0x10).setReuseAddress(true).setAcceptBacklog(64).setReusePort(true)
                .setTcpFastOpen(true).setTcpQuickAck(true).setTcpCork(true);
        ServerBootstrap ours = new ServerBootstrap();
        TRANSPORT.configure(options, false, ours);
        ServerBootstrap nio = new ServerBootstrap();
        NioTransport.INSTANCE.configure(options, false, nio);
        assertEquals(nio.config().options().keySet(), ours.config().options().keySet());
        Set<ChannelOption<?>> childOptions = new HashSet<>(nio.config().childOptions().keySet());
        childOptions.add(UcxChannelOption.RECEIVE_IN_PLACE);
        assertEquals(childOptions, ours.config().childOptions().keySet());
        assertTakes(TRANSPORT.serverChannelFactory(false).newChannel(), ours.config().options());
        assertTakes(TRANSPORT.channelFactory(false).newChannel(), ours.config().childOptions());
    }

    @Test
    void theLinuxOptionsOfEpollAreNamedAsIgnored() {
        ClientOptionsBase client = new NetClientOptions().setTcpFastOpen(true).setTcpQuickAck(true).setTcpCork(true)
                .setTcpUserTimeout(5000).setReusePort(true);
        assertEquals(EnumSet.of(IgnoredTcpOption.TCP_FAST_OPEN, IgnoredTcpOption.TCP_QUICK_ACK,
                IgnoredTcpOption.TCP_CORK, IgnoredTcpOption.TCP_USER_TIMEOUT), IgnoredTcpOption.setIn(client));
        assertEquals(EnumSet.of(IgnoredTcpOption.REUSE_PORT),
                IgnoredTcpOption.setIn(new NetServerOptions().setReusePort(true)));
        assertTrue(IgnoredTcpOption.setIn(new NetClientOptions()).isEmpty());
        assertTrue(IgnoredTcpOption.setIn(new NetServerOptions()).isEmpty());
    }

    @Test
    void datagramChannelsAreUcxsWithVertxsOptions() throws Exception {
        EventLoopGroup group = new UcxEventLoopGroup(1);
        try {
            DatagramChannel channel = TRANSPORT.datagramChannel();
            assertInstanceOf(UcxDatagramChannel.class, channel);
            group.register(channel).sync();
            TRANSPORT.configure(channel, new DatagramSocketOptions().setReusePort(true).setBroadcast(true)
                    .setSendBufferSize(64 * 1024).setMulticastTimeToLive(3).setLoopbackModeDisabled(true));
            assertTrue(channel.config().getOption(UcxChannelOption.SO_REUSEPORT), "SO_REUSEPORT");
            assertTrue(channel.config().isBroadcast(), "SO_BROADCAST");
            assertEquals(3, channel.config().getTimeToLive());
            assertTrue(channel.config().isLoopbackModeDisabled(), "multicast loopback disabled");
            channel.close().sync();
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void domainSocketsAreRefusedWithTheReason() throws Exception {
        Vertx vertx = VertxInstances.onUcx();
        try {
            SocketAddress address = SocketAddress.domainSocketAddress(dir.resolve("vertx.sock").toString());
            Throwable listen = Await.failure(vertx.createNetServer().connectHandler(socket -> { }).listen(address));
            assertRefused(listen);
            NetClient client = vertx.createNetClient();
            assertRefused(Await.failure(client.connect(address)));
            Await.result(client.close());
        } finally {
            VertxInstances.close(vertx);
        }
    }

    private static void assertRefused(Throwable failure) {
        assertInstanceOf(UnsupportedOperationException.class, failure);
        assertTrue(failure.getMessage().contains("does not support Unix domain sockets"), failure.getMessage());
    }

    @SuppressWarnings("unchecked")
    private static void assertTakes(Channel channel, Map<ChannelOption<?>, Object> options) {
        for (Map.Entry<ChannelOption<?>, Object> option : options.entrySet()) {
            ChannelOption<Object> key = (ChannelOption<Object>) option.getKey();
            assertTrue(channel.config().setOption(key, option.getValue()), channel + " does not take " + key);
            assertEquals(option.getValue(), channel.config().getOption(key), key.name());
        }
    }
}
