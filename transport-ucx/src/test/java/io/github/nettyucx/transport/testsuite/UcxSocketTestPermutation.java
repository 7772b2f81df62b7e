/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.github.nettyucx.transport.TestTransport;
import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxDatagramChannel;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketTestPermutation;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The bootstraps that Netty's socket test suite runs with, for UCX: servers are {@link UcxServerSocketChannel}s
 * on a boss and a worker {@link UcxEventLoopGroup}, clients are {@link UcxSocketChannel}s on the worker group.
 * Sockets run UCX with UCX, and plain TCP both ways: a UCX server with a NIO client (which the server serves as
 * plain TCP) and a NIO server with a UCX client that connects to it as plain TCP
 * ({@link UcxChannelOption#PLAIN_TCP_FALLBACK}). Datagram channels ({@link UcxDatagramChannel}, plain UDP) also
 * meet NIO ones.
 *
 * <p>The groups are created on first use and live (daemon threads) until the JVM exits, like Netty's own
 * testsuite groups; see {@link #instance()} for when they are replaced.
 */
public final class UcxSocketTestPermutation extends SocketTestPermutation {
    private static final int PROBE_SECONDS = 5;
    /**
     * The suite's second pass, over the TCP data path (the {@code tcp-data-path} execution of transport-ucx's pom),
     * runs UCX with UCX only: the plain TCP combinations do not depend on the data path and ran in the first.
     */
    private static final boolean TCP_DATA_PATH_PASS =
            "always".equals(System.getProperty("io.github.nettyucx.tcpDataPath"));
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
        List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> combos = new ArrayList<>(ucxSocket());
        if (TCP_DATA_PATH_PASS) {
            return combos;
        }
        combos.addAll(combo(serverSocket(), List.of(nioClient())));
        combos.addAll(combo(List.of(nioServer()), List.of(plainUcxClient())));
        return combos;
    }

    /** UCX servers with UCX clients only. */
    public List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> ucxSocket() {
        return combo(serverSocket(), clientSocket());
    }

    private BootstrapFactory<ServerBootstrap> nioServer() {
        return new BootstrapFactory<ServerBootstrap>() {
            @Override
            public ServerBootstrap newInstance() {
                return new ServerBootstrap().group(NIO_GROUP, NIO_GROUP).channel(NioServerSocketChannel.class);
            }

            @Override
            public String toString() {
                return "NioServerSocketChannel";
            }
        };
    }

    private BootstrapFactory<Bootstrap> nioClient() {
        return new BootstrapFactory<Bootstrap>() {
            @Override
            public Bootstrap newInstance() {
                return new Bootstrap().group(NIO_GROUP).channel(NioSocketChannel.class);
            }

            @Override
            public String toString() {
                return "NioSocketChannel";
            }
        };
    }

    /**
     * UCX clients with {@link UcxChannelOption#PLAIN_TCP_FALLBACK} that take each server they connect to for one
     * known not to speak netty-ucx, so that they connect to it as plain TCP at once: a NIO server of a test must
     * not see a probe's hello.
     */
    private BootstrapFactory<Bootstrap> plainUcxClient() {
        ChannelFactory<UcxSocketChannel> channels = () -> {
            UcxSocketChannel channel = new UcxSocketChannel();
            channel.pipeline().addFirst(new KnownPlainServer());
            return channel;
        };
        return new BootstrapFactory<Bootstrap>() {
            @Override
            public Bootstrap newInstance() {
                return new Bootstrap().group(workerGroup).channelFactory(channels)
                        .option(UcxChannelOption.PLAIN_TCP_FALLBACK, true)
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000);
            }

            @Override
            public String toString() {
                return "UcxSocketChannel(plain TCP)";
            }
        };
    }

    /** Makes the server of a connect known as plain TCP, then leaves the pipeline to the test. */
    private static final class KnownPlainServer extends ChannelOutboundHandlerAdapter {
        @Override
        public void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                            ChannelPromise promise) {
            TestTransport.knownPlainServer((InetSocketAddress) remoteAddress);
            ctx.pipeline().remove(this);
            ctx.connect(remoteAddress, localAddress, promise);
        }
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
                // On loopback no first segment is lost: the short wait of before keeps the suite's tests where the
                // server speaks first to a NIO client from waiting 1.5 s on each connection.
                return new ServerBootstrap().group(bossGroup, workerGroup).channel(UcxServerSocketChannel.class)
                        .childOption(UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS, 200);
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

    /**
     * UCX with UCX, and UCX with NIO both ways round (as Netty's epoll testsuite pairs epoll with NIO), so that
     * what one side gets wrong cannot be hidden by the same mistake on the other. The channels have the family
     * the test asks for.
     */
    @Override
    public List<BootstrapComboFactory<Bootstrap, Bootstrap>> datagram(SocketProtocolFamily family) {
        BootstrapFactory<Bootstrap> ucx = datagramFactory(workerGroup, () -> new UcxDatagramChannel(family),
                "UcxDatagramChannel(" + family + ')');
        BootstrapFactory<Bootstrap> nio = datagramFactory(NIO_GROUP, () -> new NioDatagramChannel(family),
                "NioDatagramChannel(" + family + ')');
        List<BootstrapComboFactory<Bootstrap, Bootstrap>> combos = new ArrayList<>(combo(List.of(ucx), List.of(ucx)));
        combos.addAll(combo(List.of(ucx), List.of(nio)));
        combos.addAll(combo(List.of(nio), List.of(ucx)));
        return combos;
    }

    /** Bootstraps of datagram channels that {@code channels} creates, which print as {@code name}. */
    private static BootstrapFactory<Bootstrap> datagramFactory(EventLoopGroup group, Supplier<Channel> channels,
                                                               String name) {
        ChannelFactory<Channel> factory = new ChannelFactory<Channel>() {
            @Override
            public Channel newChannel() {
                return channels.get();
            }

            @Override
            public String toString() {
                return name;
            }
        };
        return new BootstrapFactory<Bootstrap>() {
            @Override
            public Bootstrap newInstance() {
                return new Bootstrap().group(group).channelFactory(factory);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    @Override
    public List<BootstrapFactory<Bootstrap>> datagramSocket() {
        return List.of(datagramFactory(workerGroup, UcxDatagramChannel::new, "UcxDatagramChannel"));
    }
}
