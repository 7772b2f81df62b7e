/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxDatagramChannel;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.loop.UcxIoHandlerConfig;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.github.nettyucx.loop.WaitStrategy;
import io.netty.channel.Channel;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.NonBlocking;
import reactor.netty.resources.LoopResources;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The groups and channels {@link UcxLoopResources} hands out, and its disposal. */
class UcxLoopResourcesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final List<LoopResources> made = new ArrayList<>();
    private final List<EventLoopGroup> groups = new ArrayList<>();

    @BeforeAll
    static void ucx() {
        UcxChecks.requireUcx();
    }

    @AfterEach
    void dispose() throws Exception {
        for (LoopResources loops : made) {
            loops.disposeLater(Duration.ZERO, TIMEOUT).block(TIMEOUT);
        }
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void groupsAreUcxMadeOnceAndSizedAsAsked() throws Exception {
        UcxLoopResources loops = track(UcxLoopResources.create("unit", 3, true));
        EventLoopGroup server = loops.onServer(true);
        assertInstanceOf(UcxEventLoopGroup.class, server);
        assertSame(server, loops.onServer(true));
        assertEquals(3, loopsOf(server).size());
        assertSame(server, loops.onServerSelect(true), "the worker loops accept when no selector count is given");

        EventLoopGroup client = loops.onClient(true);
        assertSame(client, loops.onClient(true));
        assertTrue(UcxChannelTypes.isUcx(client), client.toString());
        assertTrue(loopsOf(server).contains(client.next()), "the client loops are the server's");
        assertThreads(server, "unit-ucx-");
    }

    @Test
    void selectorsOfTheirOwn() throws Exception {
        UcxLoopResources loops = track(UcxLoopResources.create("unit", 1, 2, false));
        EventLoopGroup select = loops.onServerSelect(true);
        assertInstanceOf(UcxEventLoopGroup.class, select);
        assertNotSame(loops.onServer(true), select);
        assertEquals(1, loopsOf(select).size());
        assertEquals(2, loopsOf(loops.onServer(true)).size());
        Thread thread = select.submit(Thread::currentThread).get(30, TimeUnit.SECONDS);
        assertTrue(thread.getName().startsWith("unit-select-ucx-"), thread.getName());
        assertTrue(!thread.isDaemon(), thread + " is a daemon");
    }

    /**
     * {@code useNative} false asks for NIO, as of Reactor Netty's own resources: groups of the same sizes, apart from
     * the UCX ones, with NIO channels.
     */
    @Test
    void withoutNativeNioGroupsAndChannels() throws Exception {
        UcxLoopResources loops = track(UcxLoopResources.create("unit", 1, 2, true));
        EventLoopGroup server = loops.onServer(false);
        assertSame(server, loops.onServer(false));
        assertNotSame(loops.onServer(true), server);
        assertFalse(UcxChannelTypes.isUcx(server), server.toString());
        assertEquals(2, loopsOf(server).size());
        EventLoopGroup select = loops.onServerSelect(false);
        assertNotSame(server, select);
        assertEquals(1, loopsOf(select).size());
        EventLoopGroup client = loops.onClient(false);
        assertTrue(loopsOf(server).contains(client.next()), "the client loops are the NIO server's");

        assertSame(NioServerSocketChannel.class, loops.onChannelClass(ServerSocketChannel.class, select));
        assertSame(NioSocketChannel.class, loops.onChannelClass(SocketChannel.class, server));
        assertSame(NioSocketChannel.class, loops.onChannelClass(SocketChannel.class, client));
        assertSame(NioDatagramChannel.class, loops.onChannelClass(DatagramChannel.class, client));
        assertInstanceOf(NioSocketChannel.class, loops.onChannel(SocketChannel.class, client));

        assertThreads(server, "unit-nio-");
        assertThreads(select, "unit-select-nio-");
    }

    @Test
    void sizedAsReactorNettysDefaults() {
        UcxLoopResources loops = track(UcxLoopResources.create("unit"));
        assertEquals(LoopResources.DEFAULT_IO_WORKER_COUNT, loopsOf(loops.onServer(true)).size());
    }

    @Test
    void withoutColocationClientsGetTheServerGroup() {
        UcxLoopResources loops = track(UcxLoopResources.create("unit", -1, 1, true, false));
        assertSame(loops.onServer(true), loops.onClient(true));
    }

    @Test
    void ucxChannelsForUcxGroups() throws Exception {
        UcxLoopResources loops = track(UcxLoopResources.create("unit", 1, true));
        for (EventLoopGroup group : List.of(loops.onServer(true), loops.onClient(true), loops.onServer(true).next())) {
            assertSame(UcxSocketChannel.class, loops.onChannelClass(SocketChannel.class, group));
            assertSame(UcxServerSocketChannel.class, loops.onChannelClass(ServerSocketChannel.class, group));

            SocketChannel client = loops.onChannel(SocketChannel.class, group);
            assertInstanceOf(UcxSocketChannel.class, client);
            assertTrue(client.config().getOption(UcxChannelOption.PLAIN_TCP_FALLBACK),
                    "client channels fall back to plain TCP");
            ServerSocketChannel listener = loops.onChannel(ServerSocketChannel.class, group);
            assertInstanceOf(UcxServerSocketChannel.class, listener);
            for (Channel channel : List.of(client, listener)) {
                group.register(channel).sync();
                channel.close().sync();
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> loops.onChannel(DomainSocketChannel.class, loops.onServer(true)));
        assertTrue(e.getMessage().contains("UCX has no channel for " + DomainSocketChannel.class.getName()),
                e.getMessage());
    }

    /**
     * The loops are made with the resources' {@link UcxIoHandlerConfig}, and client channels start with their client
     * options, which come after the plain TCP fallback the resources turn on and so may turn it off.
     */
    @Test
    void loopSettingsAndClientOptions() throws Exception {
        UcxIoHandlerConfig config = new UcxIoHandlerConfig()
                .waitStrategy(WaitStrategy.SPIN_THEN_SLEEP, 7, TimeUnit.MICROSECONDS).maxConnectionsPerLoop(1000);
        UcxLoopResources plain = UcxLoopResources.create("unit", 1, true);
        UcxLoopResources loops = track(plain.withIoHandlerConfig(config)
                .withClientOption(UcxChannelOption.UCX_RECV_WINDOW, 3)
                .withClientOption(UcxChannelOption.PLAIN_TCP_FALLBACK, false));
        assertEquals(new UcxIoHandlerConfig().toString(), plain.ioHandlerConfig().toString(),
                "without settings the process's defaults");
        assertSame(config, loops.ioHandlerConfig());
        EventLoopGroup server = loops.onServer(true);
        assertSame(config, ((UcxEventLoopGroup) server).ioHandlerConfig());

        SocketChannel client = loops.onChannel(SocketChannel.class, loops.onClient(true));
        assertEquals(3, client.config().getOption(UcxChannelOption.UCX_RECV_WINDOW));
        assertFalse(client.config().getOption(UcxChannelOption.PLAIN_TCP_FALLBACK));
        server.register(client).sync();
        client.close().sync();

        UcxLoopResources invalid = track(UcxLoopResources.create("unit", 1, true)
                .withClientOption(UcxChannelOption.UCX_RECV_WINDOW, 0));
        assertThrows(IllegalArgumentException.class,
                () -> invalid.onChannel(SocketChannel.class, invalid.onClient(true)));
    }

    /** Netty's DNS resolver asks the loop resources for a datagram channel on the client's loops. */
    @Test
    void datagramChannels() throws Exception {
        UcxLoopResources loops = track(UcxLoopResources.create("unit", 1, true));
        EventLoopGroup group = loops.onClient(true);
        assertSame(UcxDatagramChannel.class, loops.onChannelClass(DatagramChannel.class, group));
        DatagramChannel channel = loops.onChannel(DatagramChannel.class, group);
        assertInstanceOf(UcxDatagramChannel.class, channel);
        group.register(channel).sync();
        channel.close().sync();
    }

    /** A server or client given a group of another transport gets Reactor Netty's channels for it. */
    @Test
    void otherGroupsGetReactorNettysChannels() {
        UcxLoopResources loops = track(UcxLoopResources.create("unit", 1, true));
        EventLoopGroup nio = group(new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory()));
        assertSame(NioSocketChannel.class, loops.onChannelClass(SocketChannel.class, nio));
        assertSame(NioServerSocketChannel.class, loops.onChannelClass(ServerSocketChannel.class, nio));
        assertInstanceOf(NioSocketChannel.class, loops.onChannel(SocketChannel.class, nio));
        assertSame(NioSocketChannel.class, loops.onChannelClass(SocketChannel.class, LoopResources.colocate(nio)));
        EventLoopGroup local = group(new DefaultEventLoopGroup(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> loops.onChannel(SocketChannel.class, local));
        assertTrue(e.getMessage().contains("Unsupported event loop group"), e.getMessage());
    }

    @Test
    void disposeLaterShutsTheGroupsDown() {
        UcxLoopResources loops = UcxLoopResources.create("unit", 1, 1, true);
        List<EventLoopGroup> made = List.of(loops.onServer(true), loops.onServerSelect(true), loops.onServer(false),
                loops.onServerSelect(false));
        loops.disposeLater(Duration.ZERO, TIMEOUT).block(TIMEOUT);
        assertTrue(loops.isDisposed());
        for (EventLoopGroup group : made) {
            assertTrue(group.isTerminated(), group + " not terminated");
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> loops.onClient(true));
        assertTrue(e.getMessage().contains("is disposed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> loops.onClient(false));
        loops.disposeLater(Duration.ZERO, TIMEOUT).block(TIMEOUT);
    }

    @Test
    void disposingUnusedResourcesMakesNoGroup() {
        UcxLoopResources loops = UcxLoopResources.create("unit");
        loops.disposeLater().block(TIMEOUT);
        assertTrue(loops.isDisposed());
    }

    @Test
    void argumentsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> UcxLoopResources.create(""));
        assertThrows(IllegalArgumentException.class, () -> UcxLoopResources.create("unit", 0, true));
        assertThrows(IllegalArgumentException.class, () -> UcxLoopResources.create("unit", 0, 1, true));
        assertThrows(IllegalArgumentException.class, () -> UcxLoopResources.create("unit", -2, 1, true, true));
        assertThrows(NullPointerException.class, () -> UcxLoopResources.create(null));
    }

    private UcxLoopResources track(UcxLoopResources loops) {
        made.add(loops);
        return loops;
    }

    private EventLoopGroup group(EventLoopGroup group) {
        groups.add(group);
        return group;
    }

    /** Each loop of {@code group} runs on a daemon thread named {@code prefix<n>} that Reactor will not block. */
    private static void assertThreads(EventLoopGroup group, String prefix) throws Exception {
        for (EventExecutor loop : loopsOf(group)) {
            Thread thread = loop.submit(Thread::currentThread).get(30, TimeUnit.SECONDS);
            assertTrue(thread.isDaemon(), thread + " is not a daemon");
            assertInstanceOf(NonBlocking.class, thread, "Reactor must refuse to block an event loop");
            assertTrue(thread.getName().startsWith(prefix), thread.getName());
        }
    }

    private static Set<EventExecutor> loopsOf(EventLoopGroup group) {
        Set<EventExecutor> loops = new HashSet<>();
        group.forEach(loops::add);
        return loops;
    }
}
