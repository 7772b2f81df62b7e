/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxIoHandler;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.util.internal.SystemPropertyUtil;
import io.vertx.core.net.ClientOptionsBase;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.transport.Transport;

import java.net.SocketAddress;
import java.util.concurrent.ThreadFactory;

/**
 * Vert.x 5.0 on UCX: a Vert.x {@link io.vertx.core.spi.transport.Transport} whose event loops are
 * {@link UcxEventLoopGroup}s and whose TCP clients and servers are {@link UcxSocketChannel}s and
 * {@link UcxServerSocketChannel}s. Chosen per Vert.x instance:
 *
 * <pre>{@code
 * Vertx vertx = Vertx.builder().withTransport(UcxTransport.UCX).build();
 * }</pre>
 *
 * <p>Where UCX cannot run, {@link #isAvailable()} is false and Vert.x runs that instance on its NIO transport
 * instead; {@code vertx.isNativeTransportEnabled()} is then false and {@code vertx.unavailableNativeTransportCause()}
 * says why (the cause of {@link Ucx#unavailabilityCause()}).
 *
 * <p>Servers serve UCX clients over UCX and every other TCP client (browsers, curl, NIO or epoll Vert.x
 * instances) as plain TCP on the same port. Clients reach servers that do not speak netty-ucx too: every client
 * channel this transport makes has {@link UcxChannelOption#PLAIN_TCP_FALLBACK} on, because one transport serves
 * all of a Vert.x instance's connections (HTTP and web clients, database and Redis clients, DNS over TCP), and
 * most of their servers are not netty-ucx. {@code -Dio.github.nettyucx.plainTcpFallback=false} turns it off, so
 * that a connection to such a server fails instead.
 *
 * <p>Socket options are set as Vert.x sets them for NIO: {@code TCP_NODELAY}, {@code SO_KEEPALIVE},
 * {@code SO_SNDBUF}, {@code SO_RCVBUF}, {@code SO_REUSEADDR}, {@code SO_LINGER}, {@code IP_TOS}, the accept
 * backlog and the connect timeout. UCX channels accept and report them all; the backlog, the connect timeout and
 * {@code SO_LINGER} 0 (a reset) act on them, the others do not apply to UCX traffic. The Linux options that
 * Vert.x's epoll transport adds ({@code tcpFastOpen}, {@code tcpQuickAck}, {@code tcpCork},
 * {@code tcpUserTimeout}, a server's {@code reusePort}) are ignored, and logged once when set. Unix domain
 * sockets are not supported: using one fails with an exception that says so.
 */
public final class UcxTransport implements io.vertx.core.spi.transport.Transport {
    /** The system property that decides whether client channels fall back to plain TCP; on unless "false". */
    static final String PLAIN_TCP_FALLBACK_PROPERTY = "io.github.nettyucx.plainTcpFallback";

    /** The UCX transport, for {@code Vertx.builder().withTransport(UcxTransport.UCX)}; its name is "ucx". */
    public static final Transport UCX = new NamedTransport("ucx", new UcxTransport(
            SystemPropertyUtil.getBoolean(PLAIN_TCP_FALLBACK_PROPERTY, true)));

    private final boolean plainTcpFallback;

    UcxTransport(boolean plainTcpFallback) {
        this.plainTcpFallback = plainTcpFallback;
    }

    /** Whether the client channels of this transport fall back to plain TCP. */
    boolean plainTcpFallback() {
        return plainTcpFallback;
    }

    @Override
    public boolean isAvailable() {
        return Availability.CAUSE == null;
    }

    @Override
    public Throwable unavailabilityCause() {
        return Availability.CAUSE;
    }

    @Override
    public IoHandlerFactory ioHandlerFactory() {
        return UcxIoHandler.newFactory();
    }

    /**
     * A {@link UcxEventLoopGroup} of {@code nThreads} loops, for Vert.x's event loops and its acceptor loop alike.
     * {@code ioRatio} does not apply: a UCX loop runs its tasks between progress calls of its worker.
     */
    @Override
    public EventLoopGroup eventLoopGroup(int type, int nThreads, ThreadFactory threadFactory, int ioRatio) {
        return new UcxEventLoopGroup(nThreads, threadFactory);
    }

    @Override
    public DatagramChannel datagramChannel() {
        throw new UnsupportedOperationException("the UCX transport has no datagram channel yet: start the JVM with "
                + "-Dvertx.disableDnsResolver=true so that Vert.x resolves names with the JDK");
    }

    /** Vert.x 5.0's SPI still names Netty's deprecated {@code InternetProtocolFamily}. */
    @SuppressWarnings("deprecation")
    @Override
    public DatagramChannel datagramChannel(InternetProtocolFamily family) {
        return datagramChannel();
    }

    /**
     * Makes {@link UcxSocketChannel}s, with {@link UcxChannelOption#PLAIN_TCP_FALLBACK} set here rather than in
     * {@link #configure(ClientOptionsBase, int, boolean, Bootstrap)}: Vert.x's DNS resolver makes its TCP channels
     * (for truncated answers) with this factory and no bootstrap options, and DNS servers speak plain TCP.
     */
    @Override
    public ChannelFactory<? extends Channel> channelFactory(boolean domainSocket) {
        if (domainSocket) {
            throw domainSocketsUnsupported("a client");
        }
        return this::newSocketChannel;
    }

    @Override
    public ChannelFactory<? extends ServerChannel> serverChannelFactory(boolean domainSocket) {
        if (domainSocket) {
            throw domainSocketsUnsupported("a server");
        }
        return UcxTransport::newServerSocketChannel;
    }

    /** {@code sendFile} and {@code NetSocket.sendFile} send {@code FileRegion}s, which UCX channels take. */
    @Override
    public boolean supportFileRegion() {
        return true;
    }

    @Override
    public boolean supportsDomainSockets() {
        return false;
    }

    @Override
    public SocketAddress convert(io.vertx.core.net.SocketAddress address) {
        if (address.isDomainSocket()) {
            throw domainSocketsUnsupported(address.path());
        }
        return io.vertx.core.spi.transport.Transport.super.convert(address);
    }

    @Override
    public void configure(ClientOptionsBase options, int connectTimeout, boolean domainSocket, Bootstrap bootstrap) {
        IgnoredTcpOption.logIgnored(options);
        io.vertx.core.spi.transport.Transport.super.configure(options, connectTimeout, domainSocket, bootstrap);
    }

    @Override
    public void configure(NetServerOptions options, boolean domainSocket, ServerBootstrap bootstrap) {
        IgnoredTcpOption.logIgnored(options);
        io.vertx.core.spi.transport.Transport.super.configure(options, domainSocket, bootstrap);
    }

    private UcxSocketChannel newSocketChannel() {
        UcxSocketChannel channel = new UcxSocketChannel();
        channel.config().setOption(UcxChannelOption.PLAIN_TCP_FALLBACK, plainTcpFallback);
        channel.pipeline().addFirst(HeapReads.NAME, HeapReads.INSTANCE);
        return channel;
    }

    private static UcxServerSocketChannel newServerSocketChannel() {
        UcxServerSocketChannel channel = new UcxServerSocketChannel();
        channel.pipeline().addFirst(AcceptedChannels.NAME, AcceptedChannels.INSTANCE);
        return channel;
    }

    private static UnsupportedOperationException domainSocketsUnsupported(String what) {
        return new UnsupportedOperationException("the UCX transport does not support Unix domain sockets (" + what
                + "): listen on and connect to an IP address, or use a Vert.x instance on Transport.EPOLL or "
                + "Transport.NIO for domain sockets");
    }

    /** Holder: the transport's availability is asked for once, when Vert.x first wants it. */
    private static final class Availability {
        static final Throwable CAUSE = cause();

        /** Also covers a transport jar that cannot even be linked: Vert.x then runs on NIO, as it would without. */
        private static Throwable cause() {
            try {
                return Ucx.unavailabilityCause();
            } catch (LinkageError e) {
                return e;
            }
        }
    }
}
