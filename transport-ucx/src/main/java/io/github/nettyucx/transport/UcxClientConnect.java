/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.netty.channel.ChannelPromise;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.ConnectionPendingException;

/**
 * A client {@link UcxSocketChannel}'s TCP connect: binds its socket when asked, connects it, finishes a connect
 * that was in progress and hands the connected socket to the channel's {@link UcxConnector}; when the server turns
 * out not to speak netty-ucx, drops that connection and connects again, as plain TCP. The connect promise and its
 * deadline are the {@link UcxConnectAttempt}'s. On the channel's event loop.
 */
final class UcxClientConnect {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxClientConnect.class);
    private final UcxSocketChannel channel;
    /** The local address asked for (connect's, or bind's before it): a connect that starts over binds it again. */
    private InetSocketAddress localRequested;

    UcxClientConnect(UcxSocketChannel channel) {
        this.channel = channel;
    }

    /** Binds the side channel's socket before {@code connect()}, which then connects this socket. */
    void bind(SocketAddress localAddress) throws IOException {
        if (channel.fd.isOpen()) {
            throw new AlreadyBoundException();
        }
        InetSocketAddress bindTo = SocketAddresses.checkInet(localAddress);
        localRequested = bindTo;
        channel.fd.own(UcxNative.socketStream(bindTo.getAddress() instanceof Inet6Address));
        UcxNative.socketBind(channel.fd.get(), SocketAddresses.ip(bindTo), bindTo.getPort());
        channel.local = SocketAddresses.decode(UcxNative.socketLocalAddress(channel.fd.get()));
    }

    /** Starts the connect of an open channel; {@code promise} is fulfilled once the data path is up. */
    void connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
        UcxConnectAttempt attempt = channel.attempt;
        if (attempt.isPending() || channel.link.connection() != null || channel.session.isTcpConnected()) {
            // As on NIO: this promise fails, the connection (or the attempt) in progress goes on.
            promise.tryFailure(channel.unsafe().annotate(attempt.isPending() ? new ConnectionPendingException()
                    : new AlreadyConnectedException(), remoteAddress));
            return;
        }
        try {
            InetSocketAddress target = SocketAddresses.checkInet(remoteAddress);
            channel.connector.connecting(promise, target, channel.eventLoop(),
                    () -> channel.unsafe().close(channel.unsafe().voidPromise()));
            startConnect(target, localAddress);
        } catch (Throwable t) {
            failConnect(channel.unsafe().annotate(t, remoteAddress));
        }
    }

    private void startConnect(InetSocketAddress target, SocketAddress localAddress) throws IOException {
        if (!channel.fd.isOpen()) {
            channel.fd.own(UcxNative.socketStream(target.getAddress() instanceof Inet6Address));
        } else if (localAddress != null) {
            throw new AlreadyBoundException();
        }
        if (localAddress != null) {
            InetSocketAddress bindTo = SocketAddresses.checkInet(localAddress);
            localRequested = bindTo;
            UcxNative.socketBind(channel.fd.get(), SocketAddresses.ip(bindTo), bindTo.getPort());
        }
        if (UcxNative.socketConnect(channel.fd.get(), SocketAddresses.ip(target), target.getPort())) {
            tcpConnected();
        } else {
            channel.interest(UcxIoOps.IN_OUT);
        }
    }

    private void tcpConnected() throws IOException {
        int fd = channel.fd.get();
        channel.side.attach(fd);
        channel.local = SocketAddresses.decode(UcxNative.socketLocalAddress(fd));
        InetSocketAddress actual = SocketAddresses.decode(UcxNative.socketRemoteAddress(fd));
        channel.remote = actual != null ? actual : channel.attempt.target();
        if (!channel.connector.tcpConnected()) {
            plainServer();
        }
    }

    /** The server does not speak netty-ucx: the connection is plain TCP on this socket, nothing was sent. */
    private void plainServer() throws IOException {
        channel.side.inbound();
        try {
            channel.startPlain(UcxTransportMetrics.DataPath.PLAIN_TCP);
        } finally {
            channel.side.consumed();
        }
        channel.activate();
    }

    /**
     * The server did not answer our hello as a netty-ucx server ({@code why}): remember it, drop this
     * connection (what it sent in answer is not the application's) and connect again as plain TCP. Nothing
     * of the application's was written: the pipeline is not active yet.
     */
    void fallBackToPlain(String why) {
        InetSocketAddress target = channel.connector.startOverAsPlain(why);
        channel.session = channel.connector.session();
        UcxLoopSeat registration = channel.registration();
        registration.removeFromEpoll();
        UcxConnection connection = channel.link.connection();
        if (connection != null) {
            connection.close(channel.fd.handOff(), true);
            registration.unbindConnection();
        } else {
            try {
                channel.fd.close();
            } catch (IOException e) {
                logger.debug("closing the probe's socket failed", e);
            }
        }
        channel.side.reset();
        channel.link = new UcxHandshakeLink(channel.side);
        try {
            startConnect(target, localRequested);
        } catch (Throwable t) {
            failConnect(channel.unsafe().annotate(t, target));
        }
    }

    /** The socket became writable (or failed) while its connect was in progress. */
    void finishConnect() {
        try {
            if (UcxNative.socketFinishConnect(channel.fd.get())) {
                tcpConnected();
            }
        } catch (Throwable t) {
            failConnect(channel.unsafe().annotate(t, channel.attempt.target()));
        }
    }

    /** The connect failed: the promise fails with {@code cause}, and the channel closes. */
    void failConnect(Throwable cause) {
        channel.connector.failing(UcxTransportMetrics.SetupFailure.IO, cause.getMessage());
        ChannelPromise promise = channel.attempt.take();
        if (promise != null) {
            promise.tryFailure(cause);
        }
        channel.unsafe().close(channel.unsafe().voidPromise());
    }
}
