/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.server;

import io.github.nettyucx.kvstore.protocol.FrameDecoderHandler;
import io.github.nettyucx.kvstore.store.RecordStore;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** A running kvstore server: one listening channel, its event loops and its store. */
public final class KvServer implements AutoCloseable {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(KvServer.class);

    private final KvServerConfig config;
    private final RecordStore store;
    private final ServerStats stats = new ServerStats();
    private final EventLoopGroup group;
    private final Channel serverChannel;

    private KvServer(KvServerConfig config) throws InterruptedException {
        this.config = config;
        this.store = new RecordStore(config.maxMemoryBytes());
        this.group = config.transport().newEventLoopGroup(config.ioThreads());
        try {
            ServerBootstrap b = new ServerBootstrap()
                    .group(group)
                    .channel(config.transport().serverSocketChannel())
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new FrameDecoderHandler(config.maxFrameLength()),
                                    new RequestHandler(store, stats, config.maxFrameLength()));
                        }
                    });
            serverChannel = b.bind(config.host(), config.port()).sync().channel();
        } catch (Throwable t) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly();
            throw t;
        }
        logger.debug("kvstore server on {} over {}", serverChannel.localAddress(), config.transport().id());
    }

    /** Binds and starts serving; fails (with the cause) if the port cannot be bound. */
    public static KvServer start(KvServerConfig config) throws InterruptedException {
        return new KvServer(config);
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(config.host(), port());
    }

    public KvServerConfig config() {
        return config;
    }

    /** The store, for tests and for embedding. */
    public RecordStore store() {
        return store;
    }

    /** Connections currently open. */
    public long openConnections() {
        return stats.connectionsOpen.sum();
    }

    /** Closes the listening channel and every connection, and stops the event loops. */
    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
