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
import io.netty.util.internal.SystemPropertyUtil;
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
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SocketChannel} whose bytes travel through UCX (shared memory on one host, InfiniBand/RoCE
 * across hosts) or, for a peer UCX could reach only over TCP, as frames on a TCP socket: the
 * {@link UcxDataPath} chosen when the peer's hello arrives. A small TCP connection, the side channel,
 * carries the hellos (UCP worker addresses) and then the close records; its hang-up tells that the peer
 * died. A peer that does not speak netty-ucx gets plain TCP on that socket ({@link UcxPlainDataPath}). This class
 * connects, runs the side channel and feeds its events to the {@link UcxSession}; reading, writing and
 * half-close are {@link AbstractUcxStreamChannel}'s.
 */
public final class UcxSocketChannel extends AbstractUcxStreamChannel implements SocketChannel {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxSocketChannel.class);
    private static final PeerWarnings PEER_WARNINGS = new PeerWarnings(logger);
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);
    /** The id in a server's hello that refuses the client: any but 0 would do, no data path follows it. */
    private static final int REFUSED_CONNECTION_ID = -1;
    /** The least time a UCX endpoint has to come up, whatever the connect timeout. */
    private static final int MIN_ENDPOINT_SETUP_MILLIS = 10_000;
    /** A write reads the side channel itself when the loop has not polled sockets for this long. */
    private static final long STALE_SOCKET_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long a client with {@link UcxChannelOption#PLAIN_TCP_FALLBACK} waits for the server's hello. */
    private static final int FALLBACK_HELLO_MILLIS = Math.max(1,
            SystemPropertyUtil.getInt("io.github.nettyucx.plainTcpFallback.helloMillis", 1000));

    private final UcxSocketChannelConfig config = new UcxSocketChannelConfig(this);
    private final UcxSideChannel side = new UcxSideChannel();
    /** Set while side-channel input is parsed: handlers called from there must not read it again. */
    private boolean parsingSideChannel;
    private final UcxConnectAttempt attempt = new UcxConnectAttempt();
    /** The local address asked for (connect's, or bind's before it): a connect that starts over binds it again. */
    private InetSocketAddress localRequested;
    /** This connect goes plain TCP: the server is known not to speak netty-ucx. */
    private boolean plainAttempt;
    /** Tells a fallback deadline of an earlier attempt from the current one's. */
    private int fallbackGeneration;
    /** The data path of a plain TCP connection, also its input; null for a UCX one. */
    private UcxPlainDataPath plain;
    /** Whether this side and the peer trust each other with UCX: created when the TCP connection is made. */
    private UcxTrustExchange trust;
    /** The flags of our hello (with {@link UcxDataPathPolicy#FLAG_TRUSTS} when we trust the peer). */
    private int ourFlags;
    /** Gives back the server's count of handshakes in progress ({@link UcxHandshakeLimits}); null when not held. */
    private Runnable handshakeSlot;
    /** The flags of the peer's hello, once it came ({@link #peerHelloSeen}): whether it trusts this side. */
    private int peerFlags;
    private boolean peerHelloSeen;
    /** What the metrics and the flight recorder see of this connection's setup. */
    private final UcxConnectionSetup setup = new UcxConnectionSetup();

    /** A client channel, connected with {@code connect()}. */
    public UcxSocketChannel() {
        super(null, -1, false);
        records = side;
    }

    /**
     * A channel accepted by {@code parent}; its handshake starts once it is registered, and it
     * becomes active (firing {@code channelActive}) when its data path is up, so that what a
     * handler writes in {@code channelActive} can leave at once, as on an accepted TCP socket.
     */
    UcxSocketChannel(UcxServerSocketChannel parent, int fd, Runnable handshakeSlot) {
        super(parent, fd, true);
        this.handshakeSlot = handshakeSlot;
        records = side;
        side.attach(fd);
        this.local = SocketAddresses.decode(UcxNative.socketLocalAddress(fd));
        this.remote = SocketAddresses.decode(UcxNative.socketRemoteAddress(fd));
        setup.start();
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
        return eventLoop().submit(() -> plain != null ? plain.toString()
                : connection == null ? "no UCX endpoint yet" : connection.describe());
    }

    /**
     * An accepted channel sends nothing before its client's first bytes tell what the client speaks, or the client
     * stayed silent for {@link UcxChannelOption#CLIENT_BYTES_WAIT_MILLIS} (then it is plain TCP). A plain connection
     * may also be registered again, with another loop after a deregistration.
     */
    @Override
    protected void registered() throws Exception {
        if (plain != null) {
            // A plain connection registered again (a UCX one is bound to its loop's worker): the new loop watches it.
            plain.registered(registration().watchPlainSocket());
            scheduleReadIfNeeded();
            return;
        }
        if (session.isTcpConnected() && connection == null) {
            if (trust == null) {
                startTrustExchange();
            }
            interest(UcxIoOps.IN);
            scheduleAcceptedHandshakeTimeout();
            int waitMillis = config.clientBytesWaitMillis();
            if (waitMillis > 0) {
                eventLoop().schedule(((UcxSocketUnsafe) unsafe())::clientStayedSilent, waitMillis,
                        TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * The client does not speak netty-ucx: the connection becomes plain TCP, starting with the bytes that told us
     * so. Nothing was written to the client.
     */
    @Override
    void plainClient(ByteBuffer firstBytes) throws IOException {
        if (logger.isDebugEnabled()) {
            logger.debug("{} is plain TCP: its first bytes are 0x{}, not a netty-ucx hello", this,
                    UcxHandshake.magicSeen(firstBytes));
        }
        startPlain();
    }

    /**
     * Plain TCP on this socket, for either end, starting with the side channel's unparsed input (in read mode):
     * the socket stays in the loop's epoll set, with {@link UcxPlainDataPath} as data path, input and records.
     */
    private void startPlain() throws IOException {
        plain = new UcxPlainDataPath(fd, side.takeInbound(), config, this::interest, retryWriteLater);
        plain.registered(registration().watchPlainSocket());
        dataPath = plain;
        input = plain;
        records = plain;
        readsWantedChanged();
        // The socket's own family: an IPv6 socket may carry an IPv4 peer, whose address Java reports as IPv4.
        byte[] socketAddress = UcxNative.socketLocalAddress(fd);
        boolean ipv6 = socketAddress != null && socketAddress.length == SocketAddresses.IPV6_ENCODED_BYTES;
        config.plainSocket().attach(fd, ipv6, config);
    }

    private UcxConnection newConnection(UcxIoHandler.Registration registration) throws IOException {
        return UcxConnection.create(registration.worker(), registration.bindConnection(), config.recvWindow(),
                config.recvUnit(), config.sendSlots());
    }

    /** An accepted channel's peer has the connect timeout to finish its hello. */
    private void scheduleAcceptedHandshakeTimeout() {
        int timeoutMillis = config.getConnectTimeoutMillis();
        attempt.acceptedDeadline(eventLoop(), timeoutMillis, () -> {
            if (isOpen() && !active) {
                PEER_WARNINGS.warn("{} closed: the peer did not complete the netty-ucx handshake within {} ms",
                        this, timeoutMillis);
                setup.failing(UcxTransportMetrics.SetupFailure.TIMEOUT,
                        "no netty-ucx handshake within " + timeoutMillis + " ms");
                unsafe().close(unsafe().voidPromise());
            }
        });
    }

    private void flushSideChannel() throws IOException {
        interest(side.flush() ? UcxIoOps.IN : UcxIoOps.IN_OUT);
    }

    /**
     * The TCP connection is made (a client's connect, or an accepted socket's registration): this side's challenge,
     * and the side channel's keepalive, which tells a vanished host from a quiet one.
     */
    private void startTrustExchange() {
        trust = new UcxTrustExchange(config.trust(), isAccepted());
        session.ownNonce(trust.ownNonce());
        UcxNative.socketKeepAlive(fd, 10, 2, 3);
    }

    /** Creates the native connection (posting its receives): only once the peer is known to speak netty-ucx. */
    private void createConnection() throws IOException {
        connection = newConnection(registration());
        input = connectionInput;
    }

    /**
     * A server answers the client's challenge with its own and its proof; a client checks the server's proof (or
     * the other rules of its {@link UcxTrust}), creates its connection and sends its hello, which tells whether it
     * trusts the server. No worker address goes out here.
     */
    @Override
    void introReceived(UcxHandshake.Intro intro) throws IOException {
        trust.peerNonce(intro.nonce);
        if (isAccepted()) {
            side.queue(UcxHandshake.encodeServerIntro(trust.ownNonce(), trust.proof()));
            flushSideChannel();
            return;
        }
        boolean trusted = trust.trusts(remote, intro.proof, this::peerUid);
        ourFlags = UcxDataPathPolicy.localFlags() | (trusted ? UcxDataPathPolicy.FLAG_TRUSTS : 0);
        createConnection();
        side.queue(UcxHandshake.encodeHello(ourFlags, connection.id(), connection.tagSecret(),
                connection.recvWindow(), connection.recvUnit(), trust.proof()));
        flushSideChannel();
        if (trusted) {
            side.makeRoomForAddress();
        }
    }

    /**
     * The data path both sides choose from the two hellos. A server decides here whether it trusts the client and
     * answers with its hello; both send their worker address only when the choice is UCX, which needs the trust of
     * both.
     */
    @Override
    boolean helloReceived(UcxHandshake.Hello hello) throws IOException {
        if (isAccepted()) {
            boolean trusted = trust.trusts(remote, hello.proof, this::peerUid);
            ourFlags = UcxDataPathPolicy.localFlags() | (trusted ? UcxDataPathPolicy.FLAG_TRUSTS : 0);
        }
        peerFlags = hello.flags;
        peerHelloSeen = true;
        UcxDataPathPolicy.Choice choice = UcxDataPathPolicy.choose(ourFlags, hello.flags, hello.sameHost());
        if (choice == UcxDataPathPolicy.Choice.NONE) {
            setup.failing(UcxTransportMetrics.SetupFailure.UNTRUSTED, null);
            if (isAccepted()) {
                // Our hello all the same (with no connection behind its id), so that the client reaches the same
                // verdict and says why, instead of seeing a connection reset.
                side.queue(UcxHandshake.encodeHello(ourFlags, REFUSED_CONNECTION_ID, 0, config.recvWindow(),
                        config.recvUnit(), null));
                side.flush();
            }
            throw new ProtocolException(untrustedWithoutTcpDataPath(hello));
        }
        if (isAccepted()) {
            createConnection();
            side.queue(UcxHandshake.encodeHello(ourFlags, connection.id(), connection.tagSecret(),
                    connection.recvWindow(), connection.recvUnit(), null));
        }
        if (choice == UcxDataPathPolicy.Choice.UCX) {
            side.queue(UcxHandshake.encodeAddress(registration().worker().workerAddress()));
            side.makeRoomForAddress();
            flushSideChannel();
            return true;
        }
        flushSideChannel();
        if ((ourFlags & hello.flags & UcxDataPathPolicy.FLAG_TRUSTS) == 0) {
            logger.debug("{}: the peers do not both trust each other ({} trusts by: {}); TCP data path", this,
                    isAccepted() ? "the server" : "the client", trust.rules());
        }
        connectDataPath(choice, hello);
        return false;
    }

    @Override
    void addressReceived(UcxHandshake.Hello hello) throws IOException {
        byte[] ownAddress = registration().worker().workerAddress();
        UcxHandshake.checkWorkerAddress(hello.workerAddress, ownAddress);
        if (hello.connectionId == connection.id() && Arrays.equals(hello.workerAddress, ownAddress)) {
            // A peer that sends our own hello back, taken for a peer, would connect us to ourselves.
            throw new ProtocolException("not a netty-ucx peer (it sent our own hello back)");
        }
        connectDataPath(UcxDataPathPolicy.Choice.UCX, hello);
        session.boundPeerInFlight(connection.recvWindow());
        scheduleEndpointDeadline();
    }

    /**
     * UCX sets an endpoint up in the worker's progress (its tcp transport connects without blocking): one whose
     * peer's address leads nowhere would otherwise wait for UCX's own error handling. The channel's connect timeout
     * bounds it, though never below {@link #MIN_ENDPOINT_SETUP_MILLIS}, so that a short connect timeout (meant for
     * TCP's connect) does not fail a healthy endpoint on a busy machine: one not wired up by then fails the
     * connection.
     */
    private void scheduleEndpointDeadline() {
        int connectTimeout = config.getConnectTimeoutMillis();
        if (connectTimeout <= 0) {
            return;
        }
        int timeoutMillis = Math.max(connectTimeout, MIN_ENDPOINT_SETUP_MILLIS);
        UcxConnection endpointOf = connection;
        eventLoop().schedule(() -> {
            if (isOpen() && connection == endpointOf && endpointOf.isConnected() && !endpointOf.wiredUp()) {
                PEER_WARNINGS.warn("{}: the UCX endpoint to the peer did not come up within {} ms", this,
                        timeoutMillis);
                setup.failing(UcxTransportMetrics.SetupFailure.TIMEOUT,
                        "the UCX endpoint did not come up within " + timeoutMillis + " ms");
                ((UcxSocketUnsafe) unsafe()).peerVanished(new IOException("the UCX endpoint to the peer did not "
                        + "come up within " + timeoutMillis + " ms (CONNECT_TIMEOUT_MILLIS, at least "
                        + MIN_ENDPOINT_SETUP_MILLIS + "): UCX could not reach the worker address the peer gave"));
            }
        }, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private void connectDataPath(UcxDataPathPolicy.Choice choice, UcxHandshake.Hello hello) throws IOException {
        UcxIoHandler.Registration registration = registration();
        dataPath = UcxDataPathPolicy.connect(choice, hello, connection, side, registration::removeFromEpoll,
                retryWriteLater);
        records = dataPath.records();
        if (logger.isDebugEnabled()) {
            logger.debug("{} connected over its {} (same host: {}, peer error handling: {})", this, dataPath,
                    hello.sameHost(), hello.peerErrorHandling());
        }
    }

    private String untrustedWithoutTcpDataPath(UcxHandshake.Hello hello) {
        boolean weTrust = (ourFlags & UcxDataPathPolicy.FLAG_TRUSTS) != 0;
        return (weTrust ? "the peer does not trust this side" : "this side does not trust the peer (trusted: "
                + trust.rules() + ")") + " with UCX, and "
                + ((ourFlags & UcxDataPathPolicy.FLAG_ACCEPTS) == 0 ? "this side" : "the peer")
                + " has the TCP data path off (-Dio.github.nettyucx.tcpDataPath=never); set UcxChannelOption.TRUST "
                + "or -Dio.github.nettyucx.trust on both sides (docs/security.md)";
    }

    /** How this connection's bytes travel: called once its data path is up. */
    private UcxTransportMetrics.DataPath dataPathKind() {
        if (plain != null) {
            return UcxTransportMetrics.DataPath.PLAIN_TCP;
        }
        return dataPath instanceof UcxStreamDataPath ? UcxTransportMetrics.DataPath.TCP_DATA_PATH
                : UcxTransportMetrics.DataPath.UCX;
    }

    /** Whether each side trusts the other with UCX, from the two hellos; null before the peer's came. */
    private String trustVerdict() {
        if (!peerHelloSeen) {
            return null;
        }
        boolean weTrust = (ourFlags & UcxDataPathPolicy.FLAG_TRUSTS) != 0;
        boolean peerTrusts = (peerFlags & UcxDataPathPolicy.FLAG_TRUSTS) != 0;
        if (weTrust) {
            return peerTrusts ? "mutual" : "this side only";
        }
        return peerTrusts ? "peer only" : "none";
    }

    /**
     * The channel closes: a setup still pending has failed, for the reason noted where it failed, or because the
     * connect timed out, or else because this side closed it.
     */
    private void setupEnded() {
        if (setup.isPending()) {
            setup.failed(attempt.timedOut() ? UcxTransportMetrics.SetupFailure.TIMEOUT
                    : UcxTransportMetrics.SetupFailure.CLOSED, isAccepted(), local, remote, trustVerdict());
        }
    }

    /** The handshake ended (or never will): the server's count of handshakes in progress goes down. */
    private void handshakeDone() {
        Runnable slot = handshakeSlot;
        if (slot != null) {
            handshakeSlot = null;
            slot.run();
        }
    }

    private boolean isAccepted() {
        return parent() != null;
    }

    /** Who owns the peer's end of the TCP connection, from the kernel's socket table: -1 when not this host's. */
    private int peerUid() {
        return fd < 0 ? -1 : UcxNative.socketPeerUid(fd);
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
        if (connection == null || registration().worker().socketsPolledWithin(STALE_SOCKET_POLL_NANOS) || fd < 0
                || dataPath == null || session.isSideChannelEnded() || parsingSideChannel) {
            return;
        }
        dataPath.pollNow();
        boolean more;
        try {
            more = records.receiveRecords();
            try {
                if (session.input(side.inbound(), connection.messagesReceived())) {
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
        handshakeDone();
        setupEnded();
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
        if (connection == null || fd < 0 || session.state() != UcxSession.State.AWAITING_HELLO
                && session.state() != UcxSession.State.AWAITING_ADDRESS) {
            return;
        }
        try {
            records.receiveRecords();
            session.input(side.inbound(), connection.messagesReceived());
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
        byte type = config.getSoLinger() == 0 ? UcxHandshake.RECORD_RESET : UcxHandshake.RECORD_CLOSE;
        try {
            records.sendRecord(type, messagesSent());
        } catch (IOException e) {
            logger.debug("Could not send the close record to {}", remote, e);
        }
    }

    @Override
    protected void abandonNative() {
        config.plainSocket().detach();
        active = false;
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
            if (attempt.isPending() || connection != null || session.isTcpConnected()) {
                // As on NIO: this promise fails, the connection (or the attempt) in progress goes on.
                promise.tryFailure(annotateConnectException(attempt.isPending() ? new ConnectionPendingException()
                        : new AlreadyConnectedException(), remoteAddress));
                return;
            }
            try {
                InetSocketAddress target = SocketAddresses.checkInet(remoteAddress);
                setup.start();
                attempt.start(promise, target, eventLoop(), config.getConnectTimeoutMillis(), this::connectStage,
                        () -> close(voidPromise()));
                plainAttempt = config.isPlainTcpFallback() && UcxPlainTcpServers.isPlain(target);
                startConnect(target, localAddress);
            } catch (Throwable t) {
                failConnect(annotateConnectException(t, remoteAddress));
            }
        }

        /**
         * Where a connect that timed out stood, for its message: a server that accepted the TCP connection but never
         * answered with a hello most likely does not speak netty-ucx (an HTTP server waits for a whole request line).
         */
        private String connectStage() {
            if (!session.isTcpConnected()) {
                return "";
            }
            return config.isPlainTcpFallback() ? " (connected; no netty-ucx hello came)"
                    : " (connected, but no netty-ucx hello came: the server may not speak netty-ucx; to reach such "
                    + "servers set UcxChannelOption.PLAIN_TCP_FALLBACK)";
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
            session.tcpConnected();
            side.attach(fd);
            local = SocketAddresses.decode(UcxNative.socketLocalAddress(fd));
            InetSocketAddress actual = SocketAddresses.decode(UcxNative.socketRemoteAddress(fd));
            remote = actual != null ? actual : attempt.target();
            if (plainAttempt) {
                plainServer();
                return;
            }
            // The intro at once: a server takes a client that stays silent for long for plain TCP. The connection's
            // memory is set up only once the server answered as a netty-ucx server.
            startTrustExchange();
            side.queue(UcxHandshake.encodeClientIntro(trust.ownNonce()));
            flushSideChannel();
            if (config.isPlainTcpFallback()) {
                int generation = ++fallbackGeneration;
                eventLoop().schedule(() -> {
                    if (generation == fallbackGeneration && attempt.isPending() && !session.isEstablished()) {
                        fallBackToPlain("no netty-ucx hello within " + FALLBACK_HELLO_MILLIS + " ms");
                    }
                }, FALLBACK_HELLO_MILLIS, TimeUnit.MILLISECONDS);
            }
        }

        /** The server does not speak netty-ucx: the connection is plain TCP on this socket, nothing was sent. */
        private void plainServer() throws IOException {
            session.plainServer();
            side.inbound();
            try {
                startPlain();
            } finally {
                side.consumed();
            }
            activate();
        }

        /** True when a failed handshake may start over as plain TCP instead of failing the connect. */
        private boolean mayFallBack() {
            return config.isPlainTcpFallback() && attempt.isPending() && !plainAttempt && !session.isEstablished()
                    && isOpen();
        }

        /**
         * The server did not answer our hello as a netty-ucx server ({@code why}): remember it, drop this
         * connection (what it sent in answer is not the application's) and connect again as plain TCP. Nothing
         * of the application's was written: the pipeline is not active yet.
         */
        private void fallBackToPlain(String why) {
            InetSocketAddress target = attempt.target();
            logger.debug("{}: {} does not speak netty-ucx ({}); connecting again as plain TCP",
                    UcxSocketChannel.this, target, why);
            UcxPlainTcpServers.remember(target);
            UcxIoHandler.Registration registration = registration();
            registration.removeFromEpoll();
            if (connection != null) {
                connection.close(fd, true);
                registration.unbindConnection();
                connection = null;
            } else if (fd >= 0) {
                try {
                    UcxNative.socketClose(fd);
                } catch (IOException e) {
                    logger.debug("closing the probe's socket failed", e);
                }
            }
            fd = -1;
            dataPath = null;
            input = null;
            side.reset();
            records = side;
            restartClientSession();
            plainAttempt = true;
            peerHelloSeen = false;
            setup.startingOver();
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
            setup.failing(UcxTransportMetrics.SetupFailure.IO, cause.getMessage());
            ChannelPromise promise = attempt.take();
            if (promise != null) {
                promise.tryFailure(cause);
            }
            close(voidPromise());
        }

        private void socketReady(int ops) {
            if (plain != null) {
                plainSocketReady(ops);
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
        private void plainSocketReady(int ops) {
            plain.socketReady(ops);
            resumeWriting();
            if (isOpen() && readable()) {
                readReady();
            }
        }

        /** Side-channel input arrived (on its socket, or through the data path that owns the socket now). */
        @Override
        void sideChannelReadable() {
            UcxRecordLink link = records;
            boolean more;
            try {
                more = link.receiveRecords();
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
                peerInputEnds = session.input(side.inbound(), connection == null ? 0 : connection.messagesReceived());
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
            boolean handedOver = records != link;
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
            handshakeDone();
            setup.opened(dataPathKind(), isAccepted(), local, remote, trustVerdict());
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
            IOException cause = session.sideChannelEnded(dataPath == null ? null : dataPath.endError());
            interest(UcxIoOps.NONE);
            if (cause != null) {
                peerVanished(cause);
            }
        }

        private void protocolError(ProtocolException e) {
            if (mayFallBack()) {
                fallBackToPlain(e.getMessage());
                return;
            }
            PEER_WARNINGS.warn("Closing {}: the peer does not speak the netty-ucx protocol: {}",
                    UcxSocketChannel.this, e.getMessage());
            setup.failing(UcxTransportMetrics.SetupFailure.PROTOCOL, e.getMessage());
            session.peerLost();
            if (attempt.isPending()) {
                failConnect(new ConnectException("handshake with " + attempt.target() + " failed: "
                        + e.getMessage() + (config.isPlainTcpFallback() ? ""
                        : " (to reach servers that do not speak netty-ucx, set UcxChannelOption.PLAIN_TCP_FALLBACK)")));
            } else {
                pipeline().fireExceptionCaught(e);
                close(voidPromise());
            }
        }

        @Override
        void peerVanished(IOException cause) {
            if (mayFallBack()) {
                fallBackToPlain(cause.getMessage());
                return;
            }
            setup.failing(UcxTransportMetrics.SetupFailure.IO, cause.getMessage());
            UcxIoHandler.Registration registration = registration();
            if (session.peerLost() && dataPath != null && dataPath.peerSharesMemoryQueue() && registration != null) {
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
            if (connection == null || !isOpen()) {
                return false;
            }
            // Nothing of ours can be flushed, and the peer must not take our end for an orderly close.
            session.peerLost();
            peerVanished(cause);
            return true;
        }
    }
}
