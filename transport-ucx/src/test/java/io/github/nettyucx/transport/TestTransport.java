/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxPlainTcpServers;
import io.github.nettyucx.loop.UcxIoHandler;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.junit.jupiter.api.Assumptions;

import java.net.InetSocketAddress;
import java.util.concurrent.ThreadFactory;

/**
 * The transports that the transport-agnostic tests run against.
 *
 * <p>NIO and epoll are the reference: a test body that fails on them is a wrong test, not a transport bug.
 * UCX is the transport under test. Epoll is skipped when {@link Epoll#isAvailable()} is false.
 *
 * <p>UCX is skipped (JUnit assumption) when {@link Ucx#isAvailable()} is false, unless the system property
 * {@value #REQUIRE_UCX_PROPERTY} is {@code true}: then an unavailable UCX fails the test with its cause.
 */
public enum TestTransport {
    NIO {
        @Override
        public EventLoopGroup newGroup(int nThreads, ThreadFactory threadFactory) {
            return new MultiThreadIoEventLoopGroup(nThreads, threadFactory, NioIoHandler.newFactory());
        }

        @Override
        public Class<? extends ServerChannel> serverChannelClass() {
            return NioServerSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> clientChannelClass() {
            return NioSocketChannel.class;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public Throwable unavailabilityCause() {
            return null;
        }
    },
    EPOLL {
        @Override
        public EventLoopGroup newGroup(int nThreads, ThreadFactory threadFactory) {
            return new MultiThreadIoEventLoopGroup(nThreads, threadFactory, EpollIoHandler.newFactory());
        }

        @Override
        public Class<? extends ServerChannel> serverChannelClass() {
            return EpollServerSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> clientChannelClass() {
            return EpollSocketChannel.class;
        }

        @Override
        public boolean isAvailable() {
            return Epoll.isAvailable();
        }

        @Override
        public Throwable unavailabilityCause() {
            return Epoll.unavailabilityCause();
        }
    },
    UCX {
        @Override
        public EventLoopGroup newGroup(int nThreads, ThreadFactory threadFactory) {
            return new UcxEventLoopGroup(nThreads, threadFactory);
        }

        @Override
        public Class<? extends ServerChannel> serverChannelClass() {
            return UcxServerSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> clientChannelClass() {
            return UcxSocketChannel.class;
        }

        @Override
        public boolean isAvailable() {
            return Ucx.isAvailable();
        }

        @Override
        public Throwable unavailabilityCause() {
            return Ucx.unavailabilityCause();
        }
    };

    /** When {@code true}, an unavailable UCX fails the tests instead of skipping them. */
    public static final String REQUIRE_UCX_PROPERTY = "nettyucx.requireUcx";
    /**
     * When {@code false}, tests run against UCX only and skip NIO and epoll: the test executions other than
     * default-test, whose settings (the TCP data path, no Unsafe, another UCX, the sanitizers) change only UCX.
     */
    public static final String REFERENCE_TRANSPORTS_PROPERTY = "nettyucx.referenceTransports";

    /** Creates an event loop group of this transport with daemon threads named after the transport. */
    public EventLoopGroup newGroup(int nThreads) {
        return newGroup(nThreads, new DefaultThreadFactory("test-" + name().toLowerCase(), true));
    }

    public abstract EventLoopGroup newGroup(int nThreads, ThreadFactory threadFactory);

    public abstract Class<? extends ServerChannel> serverChannelClass();

    public abstract Class<? extends Channel> clientChannelClass();

    public abstract boolean isAvailable();

    public abstract Throwable unavailabilityCause();

    /**
     * Skips the calling test when this transport cannot run here; for UCX with
     * {@code -Dnettyucx.requireUcx=true}, fails it instead.
     */
    public void assumeAvailable() {
        if (isAvailable()) {
            return;
        }
        if (this == UCX) {
            requireUcx();
            return;
        }
        Assumptions.abort(name() + " is not available here: " + unavailabilityCause());
    }

    /**
     * Skips the calling test when this transport is not tested in this test execution: NIO and epoll where
     * {@value #REFERENCE_TRANSPORTS_PROPERTY} is {@code false}, or one that cannot run here ({@link #assumeAvailable}).
     */
    public void assumeTested() {
        if (this != UCX && !Boolean.parseBoolean(System.getProperty(REFERENCE_TRANSPORTS_PROPERTY, "true"))) {
            Assumptions.abort(name() + ", a reference transport, runs in the default-test execution only (-D"
                    + REFERENCE_TRANSPORTS_PROPERTY + "=false)");
        }
        assumeAvailable();
    }

    /**
     * Makes {@code server} known as one that does not speak netty-ucx: clients with
     * {@link UcxChannelOption#PLAIN_TCP_FALLBACK} connect to it as plain TCP at once, as to a server they remember.
     */
    public static void knownPlainServer(InetSocketAddress server) {
        UcxPlainTcpServers.remember(server);
    }

    /** Whether {@value #REQUIRE_UCX_PROPERTY} is set to {@code true}. */
    public static boolean isUcxRequired() {
        return Boolean.parseBoolean(System.getProperty(REQUIRE_UCX_PROPERTY, "false"));
    }

    /** The handler of a UCX loop, reached through a channel registered with it for the moment. */
    public static UcxIoHandler handlerOf(EventLoop loop) throws Exception {
        UcxSocketChannel channel = new UcxSocketChannel();
        loop.register(channel).sync();
        try {
            return loop.submit(() -> UcxIoHandler.of(channel.registration())).get();
        } finally {
            channel.close().sync();
        }
    }

    /**
     * Returns normally when UCX is available. Otherwise fails with the unavailability cause when
     * {@value #REQUIRE_UCX_PROPERTY} is true, or aborts (skips) the calling test.
     */
    public static void requireUcx() {
        if (Ucx.isAvailable()) {
            return;
        }
        Throwable cause = Ucx.unavailabilityCause();
        if (isUcxRequired()) {
            throw new AssertionError("UCX is required (-D" + REQUIRE_UCX_PROPERTY + "=true) but unavailable: "
                    + cause, cause);
        }
        Assumptions.abort("UCX is not available here (set -D" + REQUIRE_UCX_PROPERTY
                + "=true to fail instead): " + cause);
    }

    /** Whether the running kernel is Linux {@code major.minor} or later ({@code os.version}). */
    public static boolean kernelAtLeast(int major, int minor) {
        String[] version = System.getProperty("os.version").split("[.-]");
        int running = Integer.parseInt(version[0]);
        int runningMinor = version.length > 1 ? Integer.parseInt(version[1]) : 0;
        return running > major || running == major && runningMinor >= minor;
    }
}
