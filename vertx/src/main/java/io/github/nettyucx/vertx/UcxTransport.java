/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxDatagramChannel;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.loop.UcxIoHandler;
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
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.TcpConfig;
import io.vertx.core.transport.Transport;

import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.SocketException;
import java.util.concurrent.ThreadFactory;

/**
 * Vert.x 5.1 and later on UCX: a Vert.x {@link io.vertx.core.spi.transport.Transport} whose event loops are
 * {@link UcxEventLoopGroup}s, whose TCP clients and servers are {@link UcxSocketChannel}s and
 * {@link UcxServerSocketChannel}s, and whose datagram channels (Vert.x's DNS resolver, {@code DatagramSocket}) are
 * {@link UcxDatagramChannel}s. Chosen per Vert.x instance:
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
 * <p>Every TCP channel has {@link UcxChannelOption#RECEIVE_IN_PLACE} off: Vert.x copies out and releases only
 * buffers of Netty's pooled and adaptive allocators, and keeps any other, never released, as an unpooled heap
 * buffer. Reads therefore come from the allocator Vert.x gives the channel, as on NIO.
 *
 * <p>Socket options: Vert.x itself sets {@code SO_SNDBUF}, {@code SO_RCVBUF}, {@code SO_REUSEADDR},
 * {@code IP_TOS}, the accept backlog and the connect timeout on every transport's bootstraps, and the
 * {@code configure(TcpConfig, ...)} methods here add what it sets for NIO: {@code TCP_NODELAY},
 * {@code SO_KEEPALIVE} and {@code SO_LINGER}, for client channels and for the channels a server accepts. UCX
 * channels accept and report them all; the backlog, the connect timeout and {@code SO_LINGER} 0 (a reset) act on
 * UCX connections, the others do not apply to UCX traffic (on a plain TCP connection they are its socket's, as
 * netty-ucx-transport sets them). The Linux options that Vert.x's epoll transport adds ({@code tcpFastOpen},
 * {@code tcpQuickAck}, {@code tcpCork}, {@code tcpUserTimeout}, the keepalive timers, a server's
 * {@code reusePort}) are ignored, and logged once when set. Datagram sockets take what Vert.x gives NIO's, with
 * {@code reusePort} as on epoll. Unix domain sockets are not supported: using one fails with an exception that
 * says so.
 */
public final class UcxTransport implements io.vertx.core.spi.transport.Transport {
    /** The system property that decides whether client channels fall back to plain TCP; on unless "false". */
    static final String PLAIN_TCP_FALLBACK_PROPERTY = "io.github.nettyucx.plainTcpFallback";

    /** The UCX transport, for {@code Vertx.builder().withTransport(UcxTransport.UCX)}; its name is "ucx". */
    public static final Transport UCX = new NamedTransport("ucx", new UcxTransport(
            SystemPropertyUtil.getBoolean(PLAIN_TCP_FALLBACK_PROPERTY, true)));

    private final boolean plainTcpFallback;

    /** {@code plainTcpFallback}: whether client channels fall back to plain TCP for servers that are not ours. */
    UcxTransport(boolean plainTcpFallback) {
        this.plainTcpFallback = plainTcpFallback;
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

    /**
     * A {@link UcxDatagramChannel} (plain UDP, on the UCX loops) of {@code family}, for Vert.x's datagram sockets,
     * which ask for IPv6 or IPv4 as their options say. Vert.x's SPI still names Netty's deprecated
     * {@code InternetProtocolFamily}.
     */
    @SuppressWarnings("deprecation")
    @Override
    public DatagramChannel datagramChannel(InternetProtocolFamily family) {
        return new UcxDatagramChannel(family.toSocketProtocolFamily());
    }

    /**
     * Makes {@link UcxDatagramChannel}s, dual stack where the host has IPv6, for the channels Vert.x makes with a
     * bootstrap rather than one by one: its DNS resolver's.
     */
    @Override
    public ChannelFactory<? extends DatagramChannel> datagramChannelFactory() {
        return UcxDatagramChannel::new;
    }

    /**
     * Makes {@link UcxSocketChannel}s, with {@link UcxChannelOption#PLAIN_TCP_FALLBACK} and
     * {@link UcxChannelOption#RECEIVE_IN_PLACE} set here rather than in
     * {@link #configure(TcpConfig, boolean, Bootstrap)}: Vert.x's DNS resolver makes its TCP channels
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
        return UcxServerSocketChannel::new;
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

    /**
     * Sets what Vert.x sets on every transport's datagram channels, and, as its epoll transport, SO_REUSEPORT; and,
     * as only its NIO transport does, the multicast options (loopback, TTL, interface), which a
     * {@link UcxDatagramChannel} has.
     */
    @Override
    public void configure(DatagramChannel channel, DatagramSocketOptions options) {
        channel.config().setOption(UcxChannelOption.SO_REUSEPORT, options.isReusePort());
        io.vertx.core.spi.transport.Transport.super.configure(channel, options);
        channel.config().setLoopbackModeDisabled(options.isLoopbackModeDisabled());
        if (options.getMulticastTimeToLive() != -1) {
            channel.config().setTimeToLive(options.getMulticastTimeToLive());
        }
        String interfaceName = options.getMulticastNetworkInterface();
        if (interfaceName != null) {
            channel.config().setNetworkInterface(networkInterface(interfaceName));
        }
    }

    /** What Vert.x sets for NIO's client channels; the options of epoll's that it names are logged as ignored. */
    @Override
    public void configure(TcpConfig config, boolean domainSocket, Bootstrap bootstrap) {
        IgnoredTcpOption.logIgnored(config, false);
        io.vertx.core.spi.transport.Transport.super.configure(config, domainSocket, bootstrap);
    }

    /**
     * What Vert.x sets for the connections NIO's servers accept, and {@link UcxChannelOption#RECEIVE_IN_PLACE} off
     * for them, as {@link #channelFactory(boolean)} does for clients: Vert.x releases only buffers of the
     * allocators it knows. Vert.x calls this for every TCP server it binds (HTTP, {@code NetServer} and what is
     * built on them), after it has set the options that it sets on all transports.
     */
    @Override
    public void configure(TcpConfig config, boolean domainSocket, ServerBootstrap bootstrap) {
        IgnoredTcpOption.logIgnored(config, true);
        io.vertx.core.spi.transport.Transport.super.configure(config, domainSocket, bootstrap);
        bootstrap.childOption(UcxChannelOption.RECEIVE_IN_PLACE, false);
    }

    private UcxSocketChannel newSocketChannel() {
        UcxSocketChannel channel = new UcxSocketChannel();
        channel.config().setOption(UcxChannelOption.PLAIN_TCP_FALLBACK, plainTcpFallback);
        channel.config().setOption(UcxChannelOption.RECEIVE_IN_PLACE, false);
        return channel;
    }

    private static NetworkInterface networkInterface(String name) {
        try {
            NetworkInterface found = NetworkInterface.getByName(name);
            if (found != null) {
                return found;
            }
        } catch (SocketException e) {
            throw new IllegalArgumentException("could not look up the multicast network interface " + name, e);
        }
        throw new IllegalArgumentException("no network interface named " + name + " (multicastNetworkInterface of "
                + "DatagramSocketOptions)");
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
