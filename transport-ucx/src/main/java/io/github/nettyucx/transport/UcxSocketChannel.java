/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelPromise;
import io.netty.channel.IoEvent;
import io.netty.channel.IoRegistration;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SocketChannel} whose bytes travel through UCX (shared memory on one host, InfiniBand/RoCE
 * across hosts) or, for a peer UCX could reach only over TCP, as frames on a TCP socket: the data path
 * chosen when the peer's hello arrives. A small TCP connection, the side channel, carries the handshake and
 * then the close records; its hang-up tells that the peer died. A peer that does not speak netty-ucx gets plain
 * TCP on that socket. The channel holds one {@link UcxLink} for its phase (the handshake, then the data path);
 * {@link UcxClientConnect} connects a client's socket; {@link UcxConnector} sets the connection up; this class runs
 * the side channel and feeds its events to the {@link UcxSession}; {@link UcxSocketClose} ends the connection;
 * reading, writing and half-close are {@link AbstractUcxStreamChannel}'s.
 */
public final class UcxSocketChannel extends AbstractUcxStreamChannel implements SocketChannel {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxSocketChannel.class);
    private static final PeerWarnings PEER_WARNINGS = new PeerWarnings(logger);
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);
    /** A write reads the side channel itself when the loop has not polled sockets for this long. */
    private static final long STALE_SOCKET_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final UcxSocketChannelConfig config = new UcxSocketChannelConfig(this);
    final UcxSideChannel side = new UcxSideChannel();
    /** Set while side-channel input is parsed: handlers called from there must not read it again. */
    private boolean parsingSideChannel;
    /** Sets the connection up: the handshake, the choice of the data path, a client's fallback to plain TCP. */
    final UcxConnector connector;
    /** A client's connect promise and deadline (the connector's). */
    final UcxConnectAttempt attempt;
    /** A client's TCP connect, and its start over as plain TCP. */
    final UcxClientConnect clientConnect = new UcxClientConnect(this);
    /** What the close does to the connection and the socket. */
    private final UcxSocketClose closing = new UcxSocketClose(this);

    /** A client channel, connected with {@code connect()}. */
    public UcxSocketChannel() {
        super(null, -1);
        connector = new UcxConnector(new UcxSocketConnectorHost(this), config, false, null);
        attempt = connector.attempt();
        session = connector.session();
        link = new UcxHandshakeLink(side);
    }

    /**
     * A channel accepted by {@code parent}; its handshake starts once it is registered, and it
     * becomes active (firing {@code channelActive}) when its data path is up, so that what a
     * handler writes in {@code channelActive} can leave at once, as on an accepted TCP socket.
     */
    UcxSocketChannel(UcxServerSocketChannel parent, int fd, Runnable handshakeSlot) {
        super(parent, fd);
        connector = new UcxConnector(new UcxSocketConnectorHost(this), config, true, handshakeSlot);
        attempt = connector.attempt();
        session = connector.session();
        link = new UcxHandshakeLink(side);
        side.attach(fd);
        this.local = SocketAddresses.decode(UcxNative.socketLocalAddress(fd));
        this.remote = SocketAddresses.decode(UcxNative.socketRemoteAddress(fd));
    }

    @Override
    public ServerSocketChannel parent() {
        return (ServerSocketChannel) super.parent();
    }

    @Override
    public UcxSocketChannelConfig config() {
        return config;
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) super.remoteAddress();
    }

    /**
     * The UCX lanes and transports this connection uses (shared memory, tcp, rc/dc over InfiniBand...),
     * as UCX describes its endpoint; on the TCP data path, that it uses its TCP socket; with a peer that does not
     * speak netty-ucx, {@code plain TCP}.
     */
    public Future<String> ucxLanes() {
        return eventLoop().submit(() -> link.lanes());
    }

    /**
     * An accepted channel sends nothing before its client's first bytes tell what the client speaks, or the client
     * stayed silent for {@link UcxChannelOption#CLIENT_BYTES_WAIT_MILLIS} (then it is plain TCP). A plain connection
     * may also be registered again, with another loop after a deregistration.
     */
    @Override
    protected void registered() throws Exception {
        if (link instanceof UcxPlainDataPath) {
            // A plain connection registered again (a UCX one is bound to its loop's worker): the new loop watches it.
            ((UcxPlainDataPath) link).registered(registration().watchPlainSocket());
            scheduleReadIfNeeded();
            return;
        }
        if (session.isTcpConnected() && link.connection() == null) {
            interest(UcxIoOps.IN);
            connector.acceptedRegistered();
        }
    }

    /**
     * Plain TCP on this socket, for either end, starting with the side channel's unparsed input (in read mode):
     * the socket stays in the loop's epoll set, with {@link UcxPlainDataPath} as data path, input and records.
     */
    void startPlain() throws IOException {
        UcxPlainDataPath plain = new UcxPlainDataPath(fd.get(), side.takeInbound(), config, this::interest,
                retryWriteLater);
        plain.registered(registration().watchPlainSocket());
        link = plain;
        readsWantedChanged();
        // The socket's own family: an IPv6 socket may carry an IPv4 peer, whose address Java reports as IPv4.
        byte[] socketAddress = UcxNative.socketLocalAddress(fd.get());
        boolean ipv6 = socketAddress != null && socketAddress.length == SocketAddresses.IPV6_ENCODED_BYTES;
        config.plainSocket().attach(fd.get(), ipv6, config);
    }

    void flushSideChannel() throws IOException {
        interest(side.flush() ? UcxIoOps.IN : UcxIoOps.IN_OUT);
    }

    void connectDataPath(UcxDataPathPolicy.Choice choice, UcxHandshake.Hello hello) throws IOException {
        UcxLoopSeat registration = registration();
        link = UcxDataPathPolicy.connect(choice, hello, link.connection(), link.input(), side,
                registration::removeFromEpoll, retryWriteLater);
        if (logger.isDebugEnabled()) {
            logger.debug("{} connected over its {} (same host: {}, peer error handling: {})", this, link,
                    hello.sameHost(), hello.peerErrorHandling());
        }
    }

    @Override
    boolean receiveInPlace() {
        return config.isReceiveInPlace();
    }

    /**
     * Like a TCP send that fails once the kernel saw the peer's reset: picks up a close record the
     * blocked loop has not processed, without closing the channel in the middle of a write (the loop
     * handles the end of the side channel as usual).
     */
    @Override
    void beforeWrite() {
        if (link.kind() == null || link.connection() == null || !fd.isOpen() || session.isSideChannelEnded()
                || parsingSideChannel || registration().worker().socketsPolledWithin(STALE_SOCKET_POLL_NANOS)) {
            return;
        }
        link.pollNow();
        boolean more;
        try {
            more = link.records().receiveRecords();
            try {
                if (session.input(side.inbound(), messagesReceived())) {
                    scheduleReadIfNeeded();
                }
            } finally {
                side.consumed();
            }
        } catch (IOException e) {
            session.peerLost();
            return;
        }
        if (!more) {
            session.peerLostUnlessClosed();
            eventLoop().execute(() -> {
                if (isOpen() && !session.isSideChannelEnded()) {
                    ((UcxSocketUnsafe) unsafe()).sideChannelClosed();
                }
            });
        }
    }

    /** Binds the side channel's socket before {@code connect()}, which then connects this socket. */
    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        clientConnect.bind(localAddress);
    }

    @Override
    protected void doDisconnect() throws Exception {
        doClose();
    }

    @Override
    protected void doClose() throws Exception {
        connector.closed(local, remote);
        config.plainSocket().detach();
        active = false;
        open = false;
        inputClosedSeenErrorOnRead = true;
        ChannelPromise promise = attempt.take();
        if (promise != null) {
            promise.tryFailure(new ClosedChannelException());
        }
        closing.close();
    }

    @Override
    protected void abandonNative() {
        config.plainSocket().detach();
        active = false;
        UcxConnection connection = link.connection();
        if (connection != null) {
            connection.abandon();
        }
        side.release();
    }

    @Override
    protected UcxSocketUnsafe newUnsafe() {
        return new UcxSocketUnsafe();
    }

    /**
     * Receives the loop's events: side-channel socket readiness, and completions of the connection's
     * sends and receives (which, on the TCP data path, include its side-channel input).
     */
    final class UcxSocketUnsafe extends UcxStreamUnsafe {

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            UcxIoEvent ucxEvent = (UcxIoEvent) event;
            if (ucxEvent.isCompletion()) {
                completionsReady();
            } else {
                socketReady(ucxEvent.epollEvents());
            }
        }

        /** An accepted channel's handlers may write before the peer's hello: the bytes wait for activation. */
        @Override
        boolean holdWrites() {
            return parent() != null && !active && !session.isEstablished() && isOpen();
        }

        /**
         * The accepted client sent nothing for {@link UcxChannelOption#CLIENT_BYTES_WAIT_MILLIS}: plain TCP (a
         * netty-ucx client sends its hello as soon as it is connected), so that a server that speaks first can.
         */
        void clientStayedSilent() {
            if (!isOpen() || session.state() != UcxSession.State.AWAITING_CLIENT) {
                return;
            }
            // Bytes this loop has not processed yet (it may have been busy) decide, not the time.
            sideChannelReadable();
            // A client that sent the start of the magic and stopped is left to the handshake timeout.
            if (!isOpen() || session.state() != UcxSession.State.AWAITING_CLIENT || side.hasUnparsedInput()) {
                return;
            }
            // The data path takes the side channel's input as it takes it after a hello: in read mode.
            side.inbound();
            try {
                session.clientSilent();
            } catch (IOException e) {
                peerVanished(e);
                return;
            } finally {
                side.consumed();
            }
            activate();
        }

        @Override
        public void connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
            if (promise.isDone() || !ensureOpen(promise)) {
                return;
            }
            clientConnect.connect(remoteAddress, localAddress, promise);
        }

        /** Netty's note of the address to a connect's failure, for {@link UcxClientConnect}. */
        Throwable annotate(Throwable cause, SocketAddress remoteAddress) {
            return annotateConnectException(cause, remoteAddress);
        }

        private void socketReady(int ops) {
            if (link instanceof UcxPlainDataPath) {
                plainSocketReady((UcxPlainDataPath) link, ops);
                return;
            }
            if (!session.isTcpConnected()) {
                if ((ops & (UcxNative.EPOLLOUT | UcxNative.EPOLLERR | UcxNative.EPOLLHUP)) != 0) {
                    clientConnect.finishConnect();
                }
                return;
            }
            if ((ops & UcxNative.EPOLLOUT) != 0 && fd.isOpen()) {
                try {
                    flushSideChannel();
                } catch (IOException e) {
                    peerVanished(e);
                    return;
                }
            }
            if ((ops & (UcxNative.EPOLLIN | UcxNative.EPOLLERR | UcxNative.EPOLLHUP | UcxNative.EPOLLRDHUP)) != 0
                    && fd.isOpen()) {
                sideChannelReadable();
            }
        }

        /** The plain TCP socket is ready: writes that waited for room go on, bytes that arrived are read. */
        private void plainSocketReady(UcxPlainDataPath plain, int ops) {
            plain.socketReady(ops);
            resumeWriting();
            if (isOpen() && readable()) {
                readReady();
            }
        }

        /** Side-channel input arrived (on its socket, or through the data path that owns the socket now). */
        @Override
        void sideChannelReadable() {
            UcxRecordLink records = link.records();
            boolean more;
            try {
                more = records.receiveRecords();
            } catch (IOException e) {
                peerVanished(e);
                return;
            }
            ProtocolException protocolFailure = null;
            IOException ioFailure = null;
            boolean peerInputEnds = false;
            parsingSideChannel = true;
            try {
                // An accepted channel creates its connection only once the client's hello starts arriving.
                peerInputEnds = session.input(side.inbound(), messagesReceived());
            } catch (ProtocolException e) {
                protocolFailure = e;
            } catch (IOException e) {
                ioFailure = e;
            } finally {
                side.consumed();
                parsingSideChannel = false;
            }
            if (protocolFailure != null) {
                protocolError(protocolFailure);
                return;
            }
            if (ioFailure != null) {
                peerVanished(ioFailure);
                return;
            }
            if (peerInputEnds) {
                peerInputEnds();
                if (!isOpen()) {
                    return;
                }
            }
            if (session.isEstablished() && !active && isOpen()) {
                // Outside the parser: handlers called from here may write, block, or read the side channel.
                activate();
            }
            // A socket handed to a data path just now: its end is for the data path to find, after the bytes
            // before it.
            boolean handedOver = link.records() != records;
            if (!more && isOpen() && !handedOver) {
                sideChannelClosed();
            }
        }

        /** A record announced the end of the peer's output (it shut down or closed). */
        private void peerInputEnds() {
            scheduleReadIfNeeded();
            if (!session.peerClosedInOrder() || !writePending || !isOpen()) {
                return;
            }
            // Our waiting writes need credits the peer will never return. Over TCP its kernel would answer
            // them with a reset; without reading to the end we would never notice.
            if (peerHasMessagesToBeRead()) {
                // doWrite drops them, as TCP's kernel would take them; the peer's last messages stay readable.
                flushToClosedPeer();
                return;
            }
            peerVanished(new IOException("Connection reset by peer: it closed while our writes waited for it "
                    + "to read"));
        }

        /** The data path is up: complete the connect, or activate the accepted channel. */
        void activate() {
            connector.opened(link.kind(), local, remote);
            if (attempt.isPending()) {
                fulfillConnect();
            } else {
                attempt.take();
                active = true;
                pipeline().fireChannelActive();
            }
            resumeWriting();
            scheduleReadIfNeeded();
        }

        private void fulfillConnect() {
            ChannelPromise promise = attempt.take();
            if (promise == null) {
                return;
            }
            active = true;
            boolean promiseSet = promise.trySuccess();
            pipeline().fireChannelActive();
            if (!promiseSet) {
                close(voidPromise());
            }
        }

        /** End of the side channel: normal after a close record, otherwise the peer died or reset. */
        void sideChannelClosed() {
            IOException cause = session.sideChannelEnded(link.endError());
            interest(UcxIoOps.NONE);
            if (cause != null) {
                peerVanished(cause);
            }
        }

        private void protocolError(ProtocolException e) {
            if (connector.mayFallBack()) {
                clientConnect.fallBackToPlain(e.getMessage());
                return;
            }
            PEER_WARNINGS.warn("Closing {}: the peer does not speak the netty-ucx protocol: {}",
                    UcxSocketChannel.this, e.getMessage());
            connector.failing(UcxTransportMetrics.SetupFailure.PROTOCOL, e.getMessage());
            session.peerLost();
            if (attempt.isPending()) {
                clientConnect.failConnect(connector.handshakeFailed(e));
            } else {
                pipeline().fireExceptionCaught(e);
                close(voidPromise());
            }
        }

        @Override
        void peerVanished(IOException cause) {
            if (connector.mayFallBack()) {
                clientConnect.fallBackToPlain(cause.getMessage());
                return;
            }
            connector.failing(UcxTransportMetrics.SetupFailure.IO, cause.getMessage());
            UcxLoopSeat registration = registration();
            if (session.peerLost() && link.peerSharesMemoryQueue() && registration != null) {
                registration.sameHostPeerVanished();
            }
            if (attempt.isPending()) {
                ConnectException connectFailure = new ConnectException("connection to " + attempt.target()
                        + " failed: " + cause.getMessage());
                connectFailure.initCause(cause);
                clientConnect.failConnect(connectFailure);
            } else if (isOpen()) {
                pipeline().fireExceptionCaught(cause);
                close(voidPromise());
            }
        }

        @Override
        public boolean workerLost(IOException cause) {
            if (link.connection() == null || !isOpen()) {
                return false;
            }
            // Nothing of ours can be flushed, and the peer must not take our end for an orderly close.
            session.peerLost();
            peerVanished(cause);
            return true;
        }
    }
}
