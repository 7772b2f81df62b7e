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
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.util.Version;
import io.vertx.core.Vertx;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.impl.transports.NioTransport;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.TcpConfig;
import io.vertx.core.net.TcpOption;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    /** Every option Vert.x's SPI sets on NIO's client channels is set on ours, and our channel takes each one. */
    @Test
    void clientConfigIsNiosAndUcxChannelsTakeIt() {
        TcpConfig config = allOptions().setOption(TcpOption.FASTOPEN_CONNECT, true);
        Bootstrap ours = new Bootstrap();
        TRANSPORT.configure(config, false, ours);
        Bootstrap nio = new Bootstrap();
        NioTransport.INSTANCE.configure(config, false, nio);
        assertEquals(nio.config().options().keySet(), ours.config().options().keySet());
        assertFalse(ours.config().options().isEmpty(), "no option set");
        assertTakes(TRANSPORT.channelFactory(false).newChannel(), ours.config().options());
    }

    /**
     * The same for servers: the listener's options, and those of the connections it accepts, which also get
     * {@code RECEIVE_IN_PLACE} off: Vert.x configures its servers through this method alone.
     */
    @Test
    void serverConfigIsNiosAndTurnsReceiveInPlaceOffForAcceptedChannels() {
        TcpConfig config = allOptions().setOption(TcpOption.FASTOPEN, 256).setSoReusePort(true);
        ServerBootstrap ours = new ServerBootstrap();
        TRANSPORT.configure(config, false, ours);
        ServerBootstrap nio = new ServerBootstrap();
        NioTransport.INSTANCE.configure(config, false, nio);
        assertEquals(nio.config().options().keySet(), ours.config().options().keySet());
        Set<ChannelOption<?>> childOptions = new HashSet<>(nio.config().childOptions().keySet());
        childOptions.add(UcxChannelOption.RECEIVE_IN_PLACE);
        assertEquals(childOptions, ours.config().childOptions().keySet());
        assertEquals(false, ours.config().childOptions().get(UcxChannelOption.RECEIVE_IN_PLACE));
        assertTakes(TRANSPORT.serverChannelFactory(false).newChannel(), ours.config().options());
        assertTakes(TRANSPORT.channelFactory(false).newChannel(), ours.config().childOptions());
    }

    @Test
    void theLinuxOptionsOfEpollAreNamedAsIgnored() {
        TcpConfig client = new TcpConfig().setOption(TcpOption.FASTOPEN_CONNECT, true)
                .setOption(TcpOption.QUICKACK, true).setOption(TcpOption.CORK, true)
                .setOption(TcpOption.USER_TIMEOUT, 5000).setOption(TcpOption.KEEPIDLE, 30)
                .setOption(TcpOption.KEEPCNT, 4).setOption(TcpOption.KEEPINTVL, 5).setSoReusePort(true);
        assertEquals(EnumSet.complementOf(EnumSet.of(IgnoredTcpOption.REUSE_PORT)),
                IgnoredTcpOption.setIn(client, false), "a client's reusePort is not epoll's either");
        assertEquals(EnumSet.allOf(IgnoredTcpOption.class), IgnoredTcpOption.setIn(client, true));
        assertEquals(EnumSet.of(IgnoredTcpOption.TCP_FAST_OPEN),
                IgnoredTcpOption.setIn(new TcpConfig().setOption(TcpOption.FASTOPEN, 256), true));
        // What epoll leaves alone: options turned off, and keepalive timers of zero, the system's.
        TcpConfig off = new TcpConfig().setOption(TcpOption.FASTOPEN_CONNECT, false)
                .setOption(TcpOption.QUICKACK, false).setOption(TcpOption.CORK, false)
                .setOption(TcpOption.USER_TIMEOUT, 0).setOption(TcpOption.KEEPIDLE, 0)
                .setOption(TcpOption.KEEPCNT, 0).setOption(TcpOption.KEEPINTVL, 0);
        assertTrue(IgnoredTcpOption.setIn(off, true).isEmpty());
        assertTrue(IgnoredTcpOption.setIn(new TcpConfig(), true).isEmpty());
    }

    @Test
    void datagramChannelsAreUcxsWithVertxsOptions() throws Exception {
        EventLoopGroup group = new UcxEventLoopGroup(1);
        try {
            DatagramChannel channel = TRANSPORT.datagramChannel(InternetProtocolFamily.IPv4);
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

    /** A configuration with every option that Vert.x's SPI sets on NIO's channels away from its default. */
    private static TcpConfig allOptions() {
        return new TcpConfig().setOption(TcpOption.NODELAY, false).setSoKeepAlive(true).setSoLinger(0)
                .setOption(TcpOption.QUICKACK, true).setOption(TcpOption.CORK, true)
                .setOption(TcpOption.USER_TIMEOUT, 5000);
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
