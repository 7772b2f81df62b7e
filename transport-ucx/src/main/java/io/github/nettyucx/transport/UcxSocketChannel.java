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
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ConnectionPendingException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SocketChannel} whose bytes travel through UCX (shared memory on one host, InfiniBand/RoCE
 * across hosts) or, for a peer UCX could reach only over TCP, as frames on a TCP socket: the data path
 * chosen when the peer's hello arrives. A small TCP connection, the side channel, carries the handshake and
 * then the close records; its hang-up tells that the peer died. A peer that does not speak netty-ucx gets plain
 * TCP on that socket. The channel holds one {@link UcxLink} for its phase (the handshake, then the data path);
 * {@link UcxConnector} sets the connection up; this class connects the socket, runs the side channel and feeds
 * its events to the {@link UcxSession}; reading, writing and half-close are {@link AbstractUcxStreamChannel}'s.
 */
public final class UcxSocketChannel extends AbstractUcxStreamChannel implements SocketChannel {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxSocketChannel.class);
    private static final PeerWarnings PEER_WARNINGS = new PeerWarnings(logger);
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);
    /** A write reads the side channel itself when the loop has not polled sockets for this long. */
    private static final long STALE_SOCKET_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final UcxSocketChannelConfig config = new UcxSocketChannelConfig(this);
    private final UcxSideChannel side = new UcxSideChannel();
    /** Set while side-channel input is parsed: handlers called from there must not read it again. */
    private boolean parsingSideChannel;
    /** Sets the connection up: the handshake, the choice of the data path, a client's fallback to plain TCP. */
    private final UcxConnector connector;
    /** A client's connect promise and deadline (the connector's). */
    private final UcxConnectAttempt attempt;
    /** The local address asked for (connect's, or bind's before it): a connect that starts over binds it again. */
    private InetSocketAddress localRequested;

    /** A client channel, connected with {@code connect()}. */
    public UcxSocketChannel() {
        super(null, -1);
        connector = new UcxConnector(new ConnectorHost(), config, false, null);
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
        connector = new UcxConnector(new ConnectorHost(), config, true, handshakeSlot);
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
    private void startPlain() throws IOException {
        UcxPlainDataPath plain = new UcxPlainDataPath(fd, side.takeInbound(), config, this::interest, retryWriteLater);
        plain.registered(registration().watchPlainSocket());
        link = plain;
        readsWantedChanged();
        // The socket's own family: an IPv6 socket may carry an IPv4 peer, whose address Java reports as IPv4.
        byte[] socketAddress = UcxNative.socketLocalAddress(fd);
        boolean ipv6 = socketAddress != null && socketAddress.length == SocketAddresses.IPV6_ENCODED_BYTES;
        config.plainSocket().attach(fd, ipv6, config);
    }

    private void flushSideChannel() throws IOException {
        interest(side.flush() ? UcxIoOps.IN : UcxIoOps.IN_OUT);
    }

    private void connectDataPath(UcxDataPathPolicy.Choice choice, UcxHandshake.Hello hello) throws IOException {
        UcxIoHandler.Registration registration = registration();
        link = UcxDataPathPolicy.connect(choice, hello, link.connection(), link.input(), side,
                registration::removeFromEpoll, retryWriteLater);
        if (logger.isDebugEnabled()) {
            logger.debug("{} connected over its {} (same host: {}, peer error handling: {})", this, link,
                    hello.sameHost(), hello.peerErrorHandling());
        }
    }

    private boolean isAccepted() {
        return connector.isAccepted();
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
        if (link.kind() == null || link.connection() == null || fd < 0 || session.isSideChannelEnded()
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
        if (fd >= 0) {
            throw new AlreadyBoundException();
        }
        InetSocketAddress bindTo = SocketAddresses.checkInet(localAddress);
        localRequested = bindTo;
        fd = UcxNative.socketStream(bindTo.getAddress() instanceof Inet6Address);
        UcxNative.socketBind(fd, SocketAddresses.ip(bindTo), bindTo.getPort());
        local = SocketAddresses.decode(UcxNative.socketLocalAddress(fd));
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
        takePeerHelloBeforeClose();
        int sideFd = fd;
        fd = -1;
        UcxIoHandler.Registration registration = registration();
        if (registration != null) {
            registration.removeFromEpoll();
            registration.plainSocketGone();
        }
        boolean force = session.closeForcibly();
        boolean announce = session.closed();
        UcxConnection connection = link.connection();
        if (connection != null) {
            if (announce && sideFd >= 0) {
                sendCloseRecord();
            }
            connection.close(sideFd, force);
            if (registration != null) {
                registration.unbindConnection();
            }
        } else if (sideFd >= 0) {
            if (config.getSoLinger() == 0) {
                // Plain TCP, or a handshake cut short: the socket's own close resets, as any TCP socket's.
                resetOnClose(sideFd);
            }
            UcxNative.socketClose(sideFd);
        }
        side.release();
    }

    /**
     * A close after our hello went out but before the peer's was processed: the peer may already count the
     * connection as made (an accepted channel closed as soon as the client's connect succeeds), and must see
     * an orderly end, not a reset. Its hello has usually arrived by then: taking it sets up the data path
     * that carries the close record. Otherwise the close stays without a record, which the peer reports as
     * a reset.
     */
    private void takePeerHelloBeforeClose() {
        if (link.connection() == null || fd < 0 || session.state() != UcxSession.State.AWAITING_HELLO
                && session.state() != UcxSession.State.AWAITING_ADDRESS) {
            return;
        }
        try {
            link.records().receiveRecords();
            session.input(side.inbound(), messagesReceived());
        } catch (IOException e) {
            logger.debug("{}: no usable hello from the peer before the close", this, e);
        } finally {
            side.consumed();
        }
    }

    private void resetOnClose(int socket) {
        try {
            UcxNative.socketResetOnClose(socket);
        } catch (IOException e) {
            logger.debug("{}: could not set SO_LINGER 0 before the close", this, e);
        }
    }

    /** Tells the peer how many messages precede our end, and whether it is a reset (SO_LINGER 0); best effort. */
    private void sendCloseRecord() {
        try {
            link.records().sendClose(messagesSent(), config.getSoLinger() == 0);
        } catch (IOException e) {
            logger.debug("Could not send the close record to {}", remote, e);
        }
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
            if (attempt.isPending() || link.connection() != null || session.isTcpConnected()) {
                // As on NIO: this promise fails, the connection (or the attempt) in progress goes on.
                promise.tryFailure(annotateConnectException(attempt.isPending() ? new ConnectionPendingException()
                        : new AlreadyConnectedException(), remoteAddress));
                return;
            }
            try {
                InetSocketAddress target = SocketAddresses.checkInet(remoteAddress);
                connector.connecting(promise, target, eventLoop(), () -> close(voidPromise()));
                startConnect(target, localAddress);
            } catch (Throwable t) {
                failConnect(annotateConnectException(t, remoteAddress));
            }
        }

        private void startConnect(InetSocketAddress target, SocketAddress localAddress) throws IOException {
            if (fd < 0) {
                fd = UcxNative.socketStream(target.getAddress() instanceof Inet6Address);
            } else if (localAddress != null) {
                throw new AlreadyBoundException();
            }
            if (localAddress != null) {
                InetSocketAddress bindTo = SocketAddresses.checkInet(localAddress);
                localRequested = bindTo;
                UcxNative.socketBind(fd, SocketAddresses.ip(bindTo), bindTo.getPort());
            }
            if (UcxNative.socketConnect(fd, SocketAddresses.ip(target), target.getPort())) {
                tcpConnected();
            } else {
                interest(UcxIoOps.IN_OUT);
            }
        }

        private void tcpConnected() throws IOException {
            side.attach(fd);
            local = SocketAddresses.decode(UcxNative.socketLocalAddress(fd));
            InetSocketAddress actual = SocketAddresses.decode(UcxNative.socketRemoteAddress(fd));
            remote = actual != null ? actual : attempt.target();
            if (!connector.tcpConnected()) {
                plainServer();
            }
        }

        /** The server does not speak netty-ucx: the connection is plain TCP on this socket, nothing was sent. */
        private void plainServer() throws IOException {
            side.inbound();
            try {
                startPlain();
            } finally {
                side.consumed();
            }
            activate();
        }

        /**
         * The server did not answer our hello as a netty-ucx server ({@code why}): remember it, drop this
         * connection (what it sent in answer is not the application's) and connect again as plain TCP. Nothing
         * of the application's was written: the pipeline is not active yet.
         */
        private void fallBackToPlain(String why) {
            InetSocketAddress target = connector.startOverAsPlain(why);
            session = connector.session();
            UcxIoHandler.Registration registration = registration();
            registration.removeFromEpoll();
            UcxConnection connection = link.connection();
            if (connection != null) {
                connection.close(fd, true);
                registration.unbindConnection();
            } else if (fd >= 0) {
                try {
                    UcxNative.socketClose(fd);
                } catch (IOException e) {
                    logger.debug("closing the probe's socket failed", e);
                }
            }
            fd = -1;
            side.reset();
            link = new UcxHandshakeLink(side);
            try {
                startConnect(target, localRequested);
            } catch (Throwable t) {
                failConnect(annotateConnectException(t, target));
            }
        }

        private void finishConnect() {
            try {
                if (UcxNative.socketFinishConnect(fd)) {
                    tcpConnected();
                }
            } catch (Throwable t) {
                failConnect(annotateConnectException(t, attempt.target()));
            }
        }

        private void failConnect(Throwable cause) {
            connector.failing(UcxTransportMetrics.SetupFailure.IO, cause.getMessage());
            ChannelPromise promise = attempt.take();
            if (promise != null) {
                promise.tryFailure(cause);
            }
            close(voidPromise());
        }

        private void socketReady(int ops) {
            if (link instanceof UcxPlainDataPath) {
                plainSocketReady((UcxPlainDataPath) link, ops);
                return;
            }
            if (!session.isTcpConnected()) {
                if ((ops & (UcxNative.EPOLLOUT | UcxNative.EPOLLERR | UcxNative.EPOLLHUP)) != 0) {
                    finishConnect();
                }
                return;
            }
            if ((ops & UcxNative.EPOLLOUT) != 0 && fd >= 0) {
                try {
                    flushSideChannel();
                } catch (IOException e) {
                    peerVanished(e);
                    return;
                }
            }
            if ((ops & (UcxNative.EPOLLIN | UcxNative.EPOLLERR | UcxNative.EPOLLHUP | UcxNative.EPOLLRDHUP)) != 0
                    && fd >= 0) {
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
        private void activate() {
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
                fallBackToPlain(e.getMessage());
                return;
            }
            PEER_WARNINGS.warn("Closing {}: the peer does not speak the netty-ucx protocol: {}",
                    UcxSocketChannel.this, e.getMessage());
            connector.failing(UcxTransportMetrics.SetupFailure.PROTOCOL, e.getMessage());
            session.peerLost();
            if (attempt.isPending()) {
                failConnect(connector.handshakeFailed(e));
            } else {
                pipeline().fireExceptionCaught(e);
                close(voidPromise());
            }
        }

        @Override
        void peerVanished(IOException cause) {
            if (connector.mayFallBack()) {
                fallBackToPlain(cause.getMessage());
                return;
            }
            connector.failing(UcxTransportMetrics.SetupFailure.IO, cause.getMessage());
            UcxIoHandler.Registration registration = registration();
            if (session.peerLost() && link.peerSharesMemoryQueue() && registration != null) {
                registration.sameHostPeerVanished();
            }
            if (attempt.isPending()) {
                ConnectException connectFailure = new ConnectException("connection to " + attempt.target()
                        + " failed: " + cause.getMessage());
                connectFailure.initCause(cause);
                failConnect(connectFailure);
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

    /** The channel as its connector sees it: the side channel, the native connection and the loop. */
    private final class ConnectorHost implements UcxConnector.Host {
        @Override
        public void send(ByteBuffer bytes) throws IOException {
            side.queue(bytes);
        }

        @Override
        public void flush() throws IOException {
            flushSideChannel();
        }

        @Override
        public void expectAddress() {
            side.makeRoomForAddress();
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return remote;
        }

        @Override
        public int peerUid() {
            return fd < 0 ? -1 : UcxNative.socketPeerUid(fd);
        }

        @Override
        public void keepAlive() {
            UcxNative.socketKeepAlive(fd, 10, 2, 3);
        }

        @Override
        public UcxConnector.Endpoint newEndpoint() throws IOException {
            UcxIoHandler.Registration registration = registration();
            UcxConnection connection = UcxConnection.create(registration.worker(), registration.bindConnection(),
                    config.recvWindow(), config.recvUnit(), config.sendSlots());
            link = new UcxHandshakeLink(side, connection, new UcxConnectionInput(connection, session));
            return connection;
        }

        @Override
        public byte[] workerAddress() throws IOException {
            return registration().worker().workerAddress();
        }

        @Override
        public void connectDataPath(UcxDataPathPolicy.Choice choice, UcxHandshake.Hello hello) throws IOException {
            UcxSocketChannel.this.connectDataPath(choice, hello);
        }

        @Override
        public void startPlain() throws IOException {
            UcxSocketChannel.this.startPlain();
        }

        @Override
        public Future<?> schedule(Runnable task, long millis) {
            return eventLoop().schedule(task, millis, TimeUnit.MILLISECONDS);
        }

        @Override
        public boolean isOpen() {
            return UcxSocketChannel.this.isOpen();
        }

        @Override
        public boolean isActive() {
            return active;
        }

        @Override
        public void abort(IOException cause) {
            ((UcxSocketUnsafe) unsafe()).peerVanished(cause);
        }

        @Override
        public void close() {
            unsafe().close(unsafe().voidPromise());
        }

        @Override
        public void fallBack(String why) {
            ((UcxSocketUnsafe) unsafe()).fallBackToPlain(why);
        }

        @Override
        public void clientSilent() {
            ((UcxSocketUnsafe) unsafe()).clientStayedSilent();
        }

        @Override
        public String toString() {
            return UcxSocketChannel.this.toString();
        }
    }
}
