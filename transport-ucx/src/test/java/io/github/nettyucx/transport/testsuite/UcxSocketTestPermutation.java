/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.github.nettyucx.transport.TestTransport;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketTestPermutation;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The bootstraps that Netty's socket test suite runs with, for UCX: servers are {@link UcxServerSocketChannel}s
 * on a boss and a worker {@link UcxEventLoopGroup}, clients are {@link UcxSocketChannel}s on the worker group.
 * Only UCX-to-UCX combinations exist: a UCX endpoint cannot talk to a plain TCP socket. There are no datagram
 * channels.
 *
 * <p>The groups are created on first use and live (daemon threads) until the JVM exits, like Netty's own
 * testsuite groups; see {@link #instance()} for when they are replaced.
 */
public final class UcxSocketTestPermutation extends SocketTestPermutation {
    private static final int PROBE_SECONDS = 5;
    private static UcxSocketTestPermutation instance;

    private final EventLoopGroup bossGroup =
            new UcxEventLoopGroup(1, new DefaultThreadFactory("testsuite-ucx-boss", true));
    private final EventLoopGroup workerGroup =
            new UcxEventLoopGroup(NUM_THREADS, new DefaultThreadFactory("testsuite-ucx-worker", true));

    private UcxSocketTestPermutation() {
    }

    /**
     * The shared permutation; skips (or, when UCX is required, fails) the caller when UCX is unavailable.
     *
     * <p>Some upstream tests block an event loop on purpose until the peer does something (e.g.
     * {@code SocketHalfClosedTest.testAutoCloseFalseDoesShutdownOutput} awaits a latch in
     * {@code channelActive}); when the transport cannot make that progress, the loop stays blocked forever and
     * the test fails by its timeout. So that such a failure does not cascade into every later test, each call
     * first checks that every event loop of the shared groups still runs tasks; if one does not, the groups are
     * abandoned and replaced by new ones.
     */
    public static UcxSocketTestPermutation instance() {
        TestTransport.requireUcx();
        synchronized (UcxSocketTestPermutation.class) {
            UcxSocketTestPermutation p = instance;
            if (p != null && !p.eventLoopsRun()) {
                System.err.println("UcxSocketTestPermutation: an event loop of the shared UCX groups is blocked"
                        + " (left so by an earlier test); replacing the groups");
                p.bossGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
                p.workerGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
                p = null;
            }
            if (p == null) {
                p = new UcxSocketTestPermutation();
                instance = p;
            }
            return p;
        }
    }

    private boolean eventLoopsRun() {
        for (EventLoopGroup group : new EventLoopGroup[] {bossGroup, workerGroup}) {
            for (EventExecutor loop : group) {
                Future<?> probe = loop.submit(() -> { });
                if (!probe.awaitUninterruptibly(PROBE_SECONDS, TimeUnit.SECONDS)) {
                    return false;
                }
            }
        }
        return true;
    }

    public EventLoopGroup bossGroup() {
        return bossGroup;
    }

    public EventLoopGroup workerGroup() {
        return workerGroup;
    }

    @Override
    public List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> socket() {
        return combo(serverSocket(), clientSocket());
    }

    @Override
    public List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> socketWithFastOpen() {
        return socket();
    }

    @Override
    public List<BootstrapFactory<ServerBootstrap>> serverSocket() {
        List<BootstrapFactory<ServerBootstrap>> factories = new ArrayList<>();
        factories.add(new BootstrapFactory<ServerBootstrap>() {
            @Override
            public ServerBootstrap newInstance() {
                return new ServerBootstrap().group(bossGroup, workerGroup).channel(UcxServerSocketChannel.class);
            }

            @Override
            public String toString() {
                return "UcxServerSocketChannel";
            }
        });
        return factories;
    }

    @Override
    public List<BootstrapFactory<Bootstrap>> clientSocket() {
        List<BootstrapFactory<Bootstrap>> factories = new ArrayList<>();
        factories.add(new BootstrapFactory<Bootstrap>() {
            @Override
            public Bootstrap newInstance() {
                // Connect timeout 10 s instead of the default 30 s: a broken handshake fails tests sooner.
                return new Bootstrap().group(workerGroup).channel(UcxSocketChannel.class)
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000);
            }

            @Override
            public String toString() {
                return "UcxSocketChannel";
            }
        });
        return factories;
    }

    @Override
    public List<BootstrapFactory<Bootstrap>> clientSocketWithFastOpen() {
        return clientSocket();
    }

    @Override
    public List<BootstrapComboFactory<Bootstrap, Bootstrap>> datagram(SocketProtocolFamily family) {
        throw new UnsupportedOperationException("UCX has no datagram channel");
    }

    @Override
    public List<BootstrapFactory<Bootstrap>> datagramSocket() {
        throw new UnsupportedOperationException("UCX has no datagram channel");
    }
}
