/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.datapath.UcxConnection;
import io.github.nettyucx.datapath.UcxConnectionInput;
import io.github.nettyucx.datapath.UcxHandshakeLink;
import io.github.nettyucx.datapath.UcxInput;
import io.github.nettyucx.datapath.UcxLink;
import io.github.nettyucx.datapath.UcxPlainDataPath;
import io.github.nettyucx.datapath.UcxTagDataPath;
import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.PeerWarnings;
import io.github.nettyucx.handshake.SetupFailure;
import io.github.nettyucx.handshake.UcxConnectAttempt;
import io.github.nettyucx.handshake.UcxConnector;
import io.github.nettyucx.handshake.UcxDataPathPolicy;
import io.github.nettyucx.handshake.UcxHandshake;
import io.github.nettyucx.handshake.UcxHandshakeLimits;
import io.github.nettyucx.handshake.UcxRecordLink;
import io.github.nettyucx.handshake.UcxSession;
import io.github.nettyucx.handshake.UcxSideChannel;
import io.github.nettyucx.loop.UcxIoEvent;
import io.github.nettyucx.loop.UcxIoOps;
import io.github.nettyucx.loop.UcxLoopSeat;
import io.github.nettyucx.loop.UcxWorkerKey;
import io.github.nettyucx.jni.UcxFd;
import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxProcess;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.FileRegion;
import io.netty.channel.IoEvent;
import io.netty.channel.IoRegistration;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.internal.StringUtil;
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
import java.nio.channels.NotYetConnectedException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SocketChannel} whose bytes travel through UCX (shared memory on one host, InfiniBand/RoCE
 * across hosts) or, for a peer UCX could reach only over TCP, as plain TCP on the connection's own socket: the data
 * path chosen when the peer's hello arrives. That TCP connection, the side channel, carries the handshake and, with
 * UCX, then the close records; its hang-up tells that the peer died. A peer that does not speak netty-ucx gets
 * plain TCP on that socket too.
 * <p>
 * Who does what: the channel holds one {@link UcxLink} for its phase (the handshake, then the data path), through
 * which bytes leave ({@link #doWrite}; {@link ClosedPeerWrites} once the peer closed); it takes the socket's
 * events and the connection's completions ({@link #socketReady}, {@link #completionsReady}), hands what its
 * {@link UcxSession} makes of the side channel's input on, and reads arrived bytes up the pipeline
 * ({@link #readInput}). {@link ClientConnect} connects a client's socket; {@link UcxConnector} sets the
 * connection up; {@link UcxSocketClose} ends it. The loop's events enter at {@link UcxSocketUnsafe#handle}.
 */
public final class UcxSocketChannel extends AbstractUcxChannel implements SocketChannel {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxSocketChannel.class);
    private static final PeerWarnings PEER_WARNINGS = new PeerWarnings(logger);
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);
    /** A flush takes in the side channel's input itself when the loop has not polled sockets for this long. */
    private static final long STALE_SOCKET_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final UcxSocketChannelConfig config = new UcxSocketChannelConfig(this);
    final UcxSideChannel side = new UcxSideChannel();
    /** Sets the connection up: the handshake, the choice of the data path, a client's fallback to plain TCP. */
    final UcxConnector connector;
    /** A client's connect promise and deadline (the connector's). */
    final UcxConnectAttempt attempt;
    /** A client's TCP connect, and its start over as plain TCP. */
    final ClientConnect clientConnect = new ClientConnect(this);
    /** What the close does to the connection and the socket. */
    private final UcxSocketClose closing = new UcxSocketClose(this);
    /** Replaced only when a client's connect starts over as plain TCP. */
    UcxSession session;
    /** What carries the connection's bytes in its current phase: the handshake, then the data path. */
    UcxLink link;
    volatile boolean active;
    volatile boolean inputShutdown;
    private volatile boolean outputShutdown;
    /** Flushed writes wait for credit, a send slot or the handshake; the connection's completions resume them. */
    boolean writePending;
    /** Set while side-channel input is parsed: handlers called from there must not read it again. */
    private boolean parsing;
    /** A read was asked for ({@code read()} or auto-read) and no bytes went up since. */
    private boolean readPending;
    private boolean readScheduled;
    /** The end of the peer's input went up the pipeline (or the channel closed): nothing more is read. */
    private boolean inputClosedSeenErrorOnRead;
    private final Runnable readTask = this::readInput;
    /** What becomes of writes once the peer has closed. */
    private final ClosedPeerWrites closedPeerWrites = new ClosedPeerWrites(this);
    private final Runnable retryWrite = () -> {
        if (isOpen()) {
            unsafe().resumeWriting();
        }
    };
    /** Resumes, from the loop's next tasks, a write a FileRegion without bytes to give held back. */
    final Runnable retryWriteLater = () -> eventLoop().execute(retryWrite);

    /** A client channel, connected with {@code connect()}. */
    public UcxSocketChannel() {
        super(null, new UcxFd(-1));
        connector = new UcxConnector(new ConnectorHost(this), config.handshakeSettings(), false, null);
        attempt = connector.attempt();
        session = connector.session();
        link = new UcxHandshakeLink(side);
    }

    /**
     * A channel accepted by {@code parent}; its handshake starts once it is registered, and it
     * becomes active (firing {@code channelActive}) when its data path is up, so that what a
     * handler writes in {@code channelActive} can leave at once, as on an accepted TCP socket.
     */
    UcxSocketChannel(UcxServerSocketChannel parent, UcxFd socket, Runnable handshakeSlot) {
        super(parent, socket);
        connector = new UcxConnector(new ConnectorHost(this), config.handshakeSettings(), true, handshakeSlot);
        attempt = connector.attempt();
        session = connector.session();
        link = new UcxHandshakeLink(side);
        side.attach(socket);
        this.local = SocketAddresses.decode(socket.localAddress());
        this.remote = SocketAddresses.decode(socket.remoteAddress());
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
    public UcxSocketUnsafe unsafe() {
        return (UcxSocketUnsafe) super.unsafe();
    }

    @Override
    public boolean isActive() {
        return active;
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
     * as UCX describes its endpoint; on the TCP data path, {@code TCP data path}; with a peer that does not speak
     * netty-ucx, {@code plain TCP}.
     */
    public Future<String> ucxLanes() {
        return eventLoop().submit(() -> link.lanes());
    }

    /**
     * An accepted channel sends nothing before its client's first bytes tell what the client speaks, or the client
     * stayed silent for {@link UcxChannelOption#CLIENT_BYTES_WAIT_MILLIS} (then it is plain TCP). A plain connection
     * may be registered again, with another loop.
     */
    @Override
    protected void registered() throws Exception {
        if (link instanceof UcxPlainDataPath) {
            // Registered again (a UCX connection is bound to its loop's worker): the new loop watches the socket.
            ((UcxPlainDataPath) link).registered(registration());
            scheduleReadIfNeeded();
            return;
        }
        if (session.isTcpConnected() && link.connection() == null) {
            interest(UcxIoOps.IN);
            connector.acceptedRegistered();
        }
    }

    /**
     * The server shed this accepted channel's handshake to admit another ({@link UcxHandshakeLimits}); any thread.
     * Closed on its loop, or as soon as it is registered with one.
     */
    void shedHandshake() {
        connector.shed();
        if (isRegistered()) {
            try {
                eventLoop().execute(connector::closeIfShed);
            } catch (RejectedExecutionException e) {
                // Its loop is shutting down and closes it anyway; the newcomer that shed it must not fail for that.
                logger.debug("{}: its loop refused the close of a shed handshake", this, e);
            }
        }
    }

    /**
     * Plain TCP on this socket, for either end, starting with the side channel's unparsed input (in read mode) and
     * its unwritten output: the socket stays in the loop's epoll set, with {@link UcxPlainDataPath} as data path,
     * input and records. {@code kind}: a peer that does not speak netty-ucx, or the TCP data path of one that does.
     */
    void startPlain(DataPath kind) throws IOException {
        UcxPlainDataPath plain = new UcxPlainDataPath(fd, kind, side.takeInbound(), side.takeOutbound(), config,
                this::interest, retryWriteLater);
        // The side channel carries nothing from now on: its buffers go now, not with the channel.
        side.release();
        link = plain;
        plain.registered(registration());
        readWantedChanged();
        // The socket's own family: an IPv6 socket may carry an IPv4 peer, whose address Java reports as IPv4.
        byte[] socketAddress = fd.localAddress();
        boolean ipv6 = socketAddress != null && socketAddress.length == SocketAddresses.IPV6_ENCODED_BYTES;
        config.plainSocket().attach(fd.get(), ipv6, config);
    }

    void flushSideChannel() throws IOException {
        interest(side.flush() ? UcxIoOps.IN : UcxIoOps.IN_OUT);
    }

    /**
     * The hellos chose {@code choice}: UCX tagged messages over our connection, or the TCP data path, this socket as
     * plain TCP, where a client's connection (a server creates none) carries nothing and goes at once.
     */
    void connectDataPath(UcxDataPathPolicy.Choice choice, UcxHandshake.Hello hello) throws IOException {
        side.handshakeEnded();
        if (choice == UcxDataPathPolicy.Choice.TCP) {
            UcxConnection unused = link.connection();
            if (unused != null) {
                link = new UcxHandshakeLink(side);
                unused.close(-1, true);
                registration().unbindConnection();
            }
            startPlain(DataPath.TCP_DATA_PATH);
        } else {
            link = UcxTagDataPath.connect(hello, link.connection(), link.input(), side, retryWriteLater);
        }
        if (logger.isDebugEnabled()) {
            logger.debug("{} connected over its {} (same host: {}, peer error handling: {})", this, link,
                    hello.sameHost(), hello.peerErrorHandling());
        }
    }

    /** Messages sent so far, which a record says precede it (none on plain TCP, which has no messages). */
    int messagesSent() {
        UcxConnection connection = link.connection();
        return connection == null ? 0 : connection.messagesSent();
    }

    /** The peer's messages that arrived so far (none on plain TCP, or before there is a connection). */
    int messagesReceived() {
        UcxConnection connection = link.connection();
        return connection == null ? 0 : connection.messagesReceived();
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof ByteBuf || msg instanceof FileRegion) {
            return msg;
        }
        throw new UnsupportedOperationException("unsupported message type: " + StringUtil.simpleClassName(msg)
                + " (expected: " + StringUtil.simpleClassName(ByteBuf.class) + ", "
                + StringUtil.simpleClassName(FileRegion.class) + ')');
    }

    /** A native connection on the channel's loop, whose handshake link carries the records from now on. */
    private UcxConnection startConnection() throws IOException {
        UcxLoopSeat registration = registration();
        UcxConnection connection = UcxConnection.create(registration.worker(), registration.bindConnection(),
                config.recvWindow(), config.recvUnit(), config.sendSlots());
        link = new UcxHandshakeLink(side, connection, new UcxConnectionInput(connection, session));
        return connection;
    }

    /**
     * Reads the socket's addresses: the local one, and, once connected ({@code target} not null), the remote one,
     * or {@code target} where the kernel no longer has it.
     */
    private void addressesFromSocket(InetSocketAddress target) {
        local = SocketAddresses.decode(fd.localAddress());
        if (target != null) {
            InetSocketAddress actual = SocketAddresses.decode(fd.remoteAddress());
            remote = actual != null ? actual : target;
        }
    }

    /**
     * Drops the connection and the socket of a client's connect that starts over as plain TCP: the connector's new
     * session, and a handshake link with nothing sent, from the next socket on.
     */
    private void startOver() {
        session = connector.session();
        UcxLoopSeat registration = registration();
        registration.removeFromEpoll();
        UcxConnection connection = link.connection();
        if (connection != null) {
            connection.close(fd.handOff(), true);
            registration.unbindConnection();
        } else {
            try {
                fd.close();
            } catch (IOException e) {
                logger.debug("closing the probe's socket failed", e);
            }
        }
        side.reset();
        link = new UcxHandshakeLink(side);
    }

    /** Where bytes leave: through the link, unless the peer's close settles them ({@link ClosedPeerWrites}). */
    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        if (closedPeerWrites.settle(in)) {
            // Dropped, or held back until the peer's last messages are read.
            writePending = !in.isEmpty();
            return;
        }
        UcxConnection connection = link.connection();
        if (connection != null && !connection.isConnected()) {
            writePending = !in.isEmpty();
            return;
        }
        writePending = !link.write(in);
    }

    @Override
    protected void doShutdownOutput() throws Exception {
        if (!session.isTcpConnected() || session.isHandshaking() && !session.isPlain()) {
            // As NIO's for a connect still in progress: the handshake is part of the connect.
            throw new NotYetConnectedException();
        }
        // A record needs a peer that spoke netty-ucx (our connection exists) or a data path that is up.
        boolean peerKnown = link.connection() != null || link.kind() != null;
        if (peerKnown && fd.isOpen() && session.canAnnounceShutdown()
                && !link.records().sendShutdownOutput(messagesSent())) {
            interest(UcxIoOps.IN_OUT);
        }
        outputShutdown = true;
    }

    // As on NIO, a channel that is not active counts as shut down in both directions.
    @Override
    public boolean isInputShutdown() {
        return inputShutdown || !isActive();
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown || !isActive();
    }

    @Override
    public boolean isShutdown() {
        return inputShutdown && outputShutdown || !isActive();
    }

    @Override
    public ChannelFuture shutdownOutput() {
        return shutdownOutput(newPromise());
    }

    @Override
    public ChannelFuture shutdownOutput(ChannelPromise promise) {
        inLoop(() -> unsafe().shutdownOutput(promise));
        return promise;
    }

    @Override
    public ChannelFuture shutdownInput() {
        return shutdownInput(newPromise());
    }

    @Override
    public ChannelFuture shutdownInput(ChannelPromise promise) {
        inLoop(() -> {
            if (!isOpen()) {
                promise.setFailure(new ClosedChannelException());
            } else if (!session.isTcpConnected()) {
                promise.setFailure(new NotYetConnectedException());
            } else {
                inputShutdown = true;
                promise.setSuccess();
            }
        });
        return promise;
    }

    @Override
    public ChannelFuture shutdown() {
        return shutdown(newPromise());
    }

    @Override
    public ChannelFuture shutdown(ChannelPromise promise) {
        ChannelFuture outputDone = shutdownOutput();
        outputDone.addListener((ChannelFutureListener) f -> shutdownInput().addListener((ChannelFutureListener) g -> {
            Throwable cause = f.cause() != null ? f.cause() : g.cause();
            if (cause != null) {
                promise.setFailure(cause);
            } else {
                promise.setSuccess();
            }
        }));
        return promise;
    }

    private void inLoop(Runnable task) {
        EventLoop loop = eventLoop();
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
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

    // Events: where the socket's readiness and the connection's completions arrive, and what the session makes of
    // the side channel's input (the peer's hello, its records, the end of its stream, its loss).
    /**
     * A flush from a handler that has kept the loop from polling its sockets: takes in the side channel's input
     * first, as the loop would have, so that a write after the peer's reset fails as a TCP send does once the
     * kernel saw the reset (Netty's half-close conformance writes from a blocked loop). Not from a flush inside
     * another flush of the channel (the unsafe sees to that): the writes under way would end without seeing what it
     * found. A peek comes first: a loop held up by anything (a collection, the JIT's threads on a small machine)
     * finds the sockets stale too, mostly with nothing to read, and the JIT, which inlines what a flush reaches
     * often, then keeps the side channel's parser out of every compiled flush.
     */
    void catchUpBeforeFlush() {
        UcxLink current = link;
        if (!active || current.kind() == null || current.connection() == null || !fd.isOpen()
                || session.isSideChannelEnded() || parsing
                || registration().worker().socketsPolledWithin(STALE_SOCKET_POLL_NANOS)) {
            return;
        }
        try {
            if (fd.peek() == UcxFd.NOTHING_YET) {
                return;
            }
        } catch (IOException e) {
            // The error a read would have met (the reset); the peek took it from the socket.
            peerVanished(e);
            return;
        }
        sideChannelReadable();
    }

    /**
     * The channel's socket is ready ({@code ops}: epoll's events): a client's connect finished, the side channel
     * can take more or has input, or, on plain TCP, the data path's socket is ready.
     */
    void socketReady(int ops) {
        UcxSocketUnsafe unsafe = unsafe();
        if (link instanceof UcxPlainDataPath) {
            // Writes that waited for room go on, bytes that arrived are read.
            ((UcxPlainDataPath) link).socketReady(ops);
            unsafe.resumeWriting();
            if (isOpen() && readable()) {
                readInput();
            }
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

    /**
     * Sends and receives of the connection completed: release what finished sends held, resume writes, read, return
     * credits.
     */
    void completionsReady() {
        UcxConnection connection = link.connection();
        if (connection == null || !isOpen()) {
            return;
        }
        connection.clearNotified();
        connection.releaseCompletedSends();
        int error = connection.endpointError();
        if (error != 0) {
            peerVanished(new IOException(link + " failed: " + UcxProcess.statusString(error)));
            return;
        }
        try {
            connection.wakeIfHeld();
        } catch (IOException e) {
            peerVanished(e);
            return;
        }
        UcxSocketUnsafe unsafe = unsafe();
        unsafe.resumeWriting();
        if (readable()) {
            // Like epoll's handler: read at once, in the loop's own dispatch.
            readInput();
        }
        unsafe.returnCreditsIfDue();
    }

    /** Side-channel input arrived on its socket. */
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
        parsing = true;
        try {
            // An accepted channel creates its connection only once the client's hello starts arriving.
            peerInputEnds = session.input(side.inbound(), messagesReceived());
        } catch (ProtocolException e) {
            protocolFailure = e;
        } catch (IOException e) {
            ioFailure = e;
        } finally {
            side.consumed();
            parsing = false;
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
            // Outside the parser: handlers called from here may write, block, or read the side
            activate();
        }
        // A socket that became plain TCP just now: its end is for that data path to find, after the bytes before it.
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
            unsafe().flushToClosedPeer();
            return;
        }
        peerVanished(new IOException("Connection reset by peer: it closed while our writes waited for it to read"));
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
        if (!isOpen() || session.state() != UcxSession.State.AWAITING_CLIENT
                || side.hasUnparsedInput()) {
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

    /** The data path is up: complete the connect, or activate the accepted  */
    void activate() {
        connector.opened(link.kind(), local, remote);
        ChannelPromise promise = attempt.take();
        active = true;
        boolean promiseSet = promise == null || promise.trySuccess();
        pipeline().fireChannelActive();
        if (!promiseSet) {
            // The user cancelled the connect as it completed.
            unsafe().close(unsafe().voidPromise());
            return;
        }
        unsafe().resumeWriting();
        scheduleReadIfNeeded();
    }

    /** End of the side channel: normal after a close record, otherwise the peer died or reset. */
    void sideChannelClosed() {
        IOException cause = session.sideChannelEnded();
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
        PEER_WARNINGS.warn("Closing {}: the peer does not speak the netty-ucx protocol: {}", this, e.getMessage());
        connector.failing(SetupFailure.PROTOCOL, e.getMessage());
        session.peerLost();
        if (attempt.isPending()) {
            clientConnect.failConnect(connector.handshakeFailed(e));
        } else {
            pipeline().fireExceptionCaught(e);
            unsafe().close(unsafe().voidPromise());
        }
    }

    /**
     * The peer is gone or unreachable: fail the connect, or report {@code cause}. Never a fallback to plain TCP: a
     * netty-ucx server that sheds or times out a handshake closes before its intro too (docs/protocol.md).
     */
    void peerVanished(IOException cause) {
        String hint = connector.vanishedHint();
        connector.failing(SetupFailure.IO, cause.getMessage());
        UcxLoopSeat registration = registration();
        if (session.peerLost() && link.peerSharesMemoryQueue() && registration != null) {
            registration.sameHostPeerVanished();
        }
        if (attempt.isPending()) {
            ConnectException connectFailure = new ConnectException("connection to " + attempt.target()
                    + " failed: " + cause.getMessage() + hint);
            connectFailure.initCause(cause);
            clientConnect.failConnect(connectFailure);
        } else if (isOpen()) {
            pipeline().fireExceptionCaught(cause);
            unsafe().close(unsafe().voidPromise());
        }
    }

    // The read loop: hands what arrived through the link's input up the pipeline, then the end of the peer's
    // input, as Netty's socket transports do.
    /** A read is asked for: Netty's {@code read()} or auto-read. */
    @Override
    protected void doBeginRead() {
        readPending = true;
        readWantedChanged();
        scheduleReadIfNeeded();
    }

    /**
     * Schedules the read loop when bytes are wanted and there, or when the peer's end of stream is
     * reached: like epoll's EPOLLRDHUP, that is delivered even without a readPending read.
     */
    void scheduleReadIfNeeded() {
        if (!readScheduled && readable()) {
            readScheduled = true;
            eventLoop().execute(readTask);
        }
    }

    boolean readable() {
        return active && (readWanted() && link.input().hasReadable()
                || atEndOfInput() && !inputClosedSeenErrorOnRead);
    }

    private boolean readWanted() {
        return config().isAutoRead() || readPending;
    }

    /** Auto-read was switched off: a read requested before no longer counts. */
    void clearReadPending() {
        if (isRegistered() && !eventLoop().inEventLoop()) {
            eventLoop().execute(this::clearReadPending);
            return;
        }
        readPending = false;
        readWantedChanged();
        if (isOpen()) {
            closedPeerWrites.failHeldWrites();
        }
    }

    /** Tells the input whether the channel reads now (a plain socket is watched for input only then). */
    void readWantedChanged() {
        link.input().readsWanted(readWanted() && !inputShutdown);
    }

    private boolean shouldBreakRead() {
        return inputShutdown && (inputClosedSeenErrorOnRead || !config().isAllowHalfClosure());
    }

    private boolean atEndOfInput() {
        return link.input().atEnd();
    }

    /**
     * True while messages the peer sent before its close are still to arrive or to be read, and this channel
     * reads: a write to the closed peer is then dropped, keeping them readable. A channel that does not read
     * would never reach the close and would stay open; it is reset instead, as over TCP.
     */
    boolean peerHasMessagesToBeRead() {
        UcxConnection connection = link.connection();
        return connection != null && !inputShutdown && readWanted()
                && (connection.hasReadable() || session.peerMessagesInFlight(connection.messagesReceived()));
    }

    /**
     * Delivers arrived bytes in sequence order, like epoll's read loop delivers socket reads. (Netty's
     * Unsafe hands out its RecvByteBufAllocator.Handle, deprecated in favour of ExtendedHandle, which a
     * user's allocator need not implement.)
     */
    @SuppressWarnings("deprecation")
    void readInput() {
        readScheduled = false;
        if (!active) {
            return;
        }
        if (shouldBreakRead()) {
            discardInput();
            return;
        }
        if (!readWanted() && !atEndOfInput()) {
            return;
        }
        UcxSocketChannelConfig config = config();
        ChannelPipeline pipeline = pipeline();
        ByteBufAllocator allocator = config.getAllocator();
        UcxSocketChannel.UcxSocketUnsafe unsafe = unsafe();
        RecvByteBufAllocator.Handle allocHandle = unsafe.recvBufAllocHandle();
        UcxInput input = link.input();
        allocHandle.reset(config);
        ByteBuf byteBuf = null;
        boolean endOfInput = false;
        boolean delivered = false;
        try {
            do {
                if (atEndOfInput()) {
                    endOfInput = true;
                    readPending = false;
                    break;
                }
                if (!input.hasReadable()) {
                    break;
                }
                // The handle's guess bounds a read, as the user's RecvByteBufAllocator expects.
                byteBuf = config.isReceiveInPlace() ? input.readInPlace(allocHandle.guess()) : null;
                if (byteBuf != null) {
                    allocHandle.attemptedBytesRead(byteBuf.readableBytes());
                    allocHandle.lastBytesRead(byteBuf.readableBytes());
                } else {
                    byteBuf = allocHandle.allocate(allocator);
                    allocHandle.attemptedBytesRead(byteBuf.writableBytes());
                    allocHandle.lastBytesRead(input.read(byteBuf));
                }
                if (allocHandle.lastBytesRead() <= 0) {
                    byteBuf.release();
                    byteBuf = null;
                    if (allocHandle.lastBytesRead() < 0) {
                        endOfInput = true;
                        readPending = false;
                    }
                    break;
                }
                allocHandle.incMessagesRead(1);
                readPending = false;
                delivered = true;
                pipeline.fireChannelRead(byteBuf);
                byteBuf = null;
                if (shouldBreakRead() || !isOpen()) {
                    break;
                }
            } while (allocHandle.continueReading());
            allocHandle.readComplete();
            if (delivered || endOfInput) {
                // A round that found nothing (plain TCP guesses that a full read left more) is no round for the
                // pipeline: a read() with AUTO_READ off stays readPending until bytes come.
                pipeline.fireChannelReadComplete();
            }
            if (isOpen()) {
                unsafe.returnCreditsIfDue();
            }
            IOException endFailure = endOfInput ? input.endFailure() : null;
            if (endFailure != null) {
                // As Netty's socket transports report a read that meets a reset: the error, then the close.
                pipeline.fireExceptionCaught(endFailure);
                unsafe.close(unsafe.voidPromise());
            } else if (endOfInput) {
                if (session.peerReset()) {
                    peerResetAtEndOfInput();
                } else {
                    inputEnded(true);
                }
            }
        } catch (Throwable t) {
            handleReadException(pipeline, byteBuf, t, allocHandle);
        } finally {
            if (isOpen()) {
                readWantedChanged();
                scheduleReadIfNeeded();
                closedPeerWrites.failHeldWrites();
            }
        }
    }

    private void discardInput() {
        try {
            link.input().discardReadable();
        } catch (IOException e) {
            pipeline().fireExceptionCaught(e);
            unsafe().close(unsafe().voidPromise());
            return;
        }
        unsafe().returnCreditsIfDue();
    }

    @SuppressWarnings("deprecation")
    private void handleReadException(ChannelPipeline pipeline, ByteBuf byteBuf, Throwable cause,
                                     RecvByteBufAllocator.Handle allocHandle) {
        if (byteBuf != null) {
            if (byteBuf.isReadable()) {
                readPending = false;
                pipeline.fireChannelRead(byteBuf);
            } else {
                byteBuf.release();
            }
        }
        allocHandle.readComplete();
        pipeline.fireChannelReadComplete();
        pipeline.fireExceptionCaught(cause);
        if (cause instanceof IOException || cause instanceof OutOfMemoryError) {
            unsafe().close(unsafe().voidPromise());
        }
    }

    /**
     * The peer closed with {@code SO_LINGER} 0 and all it sent before has been read: as Netty's socket
     * transports handle a read that meets a TCP reset, the channel reports it, then its input ends (closing
     * the channel unless half-closure is allowed).
     */
    private void peerResetAtEndOfInput() {
        inputClosedSeenErrorOnRead = true;
        pipeline().fireExceptionCaught(
                new IOException("Connection reset by peer (it closed with SO_LINGER 0)"));
        if (isOpen()) {
            inputEnded(false);
        }
    }

    /** Peer's end of stream reached: half-close when allowed, else close, as Netty's socket transports do. */
    private void inputEnded(boolean allDataRead) {
        if (!inputShutdown) {
            if (config().isAllowHalfClosure()) {
                inputShutdown = true;
                pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            } else {
                unsafe().close(unsafe().voidPromise());
                return;
            }
        }
        if (allDataRead && !inputClosedSeenErrorOnRead) {
            inputClosedSeenErrorOnRead = true;
            pipeline().fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
        }
    }

    @Override
    protected UcxSocketUnsafe newUnsafe() {
        return new UcxSocketUnsafe();
    }

    /**
     * Receives the loop's events: side-channel socket readiness, and completions of the connection's
     * sends and receives (which, on the TCP data path, include its side-channel input).
     */
    protected final class UcxSocketUnsafe extends UcxUnsafe {
        UcxSocketUnsafe() {
        }

        /**
         * Set while this channel's writes run: a handler that writes from inside them (on a writability change) must
         * not take in the side channel's input, as the writes under way would end without seeing the peer's close.
         */
        private boolean flushing;

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            UcxIoEvent ucxEvent = (UcxIoEvent) event;
            if (ucxEvent.isCompletion()) {
                completionsReady();
            } else {
                socketReady(ucxEvent.epollEvents());
            }
        }

        @Override
        protected void flush0() {
            if (writePending) {
                return;
            }
            // An accepted channel's handlers may write before the peer's hello: the bytes wait for activation.
            if (parent() != null && !active && !session.isEstablished() && isOpen()) {
                writePending = true;
                return;
            }
            if (!flushing) {
                catchUpBeforeFlush();
            }
            flushNow();
        }

        /** Netty's flush, with {@link #flushing} set around the outermost one. */
        private void flushNow() {
            if (flushing) {
                super.flush0();
                return;
            }
            flushing = true;
            try {
                super.flush0();
            } finally {
                flushing = false;
            }
        }

        /** Flushes writes that waited for credit, a send slot or the handshake, once they can go. */
        void resumeWriting() {
            if (!writePending) {
                return;
            }
            try {
                if (!link.canSend()) {
                    return;
                }
            } catch (IOException e) {
                // A send failed after it was queued (its socket broke, or its file's bytes could not be sent): the
                // writes waiting fail with the reason, as a write that fails at once does, and the channel closes.
                writePending = false;
                handleWriteError(e);
                return;
            }
            writePending = false;
            flushNow();
        }

        /**
         * Flushes the writes waiting for credit at once: the peer closed and will return none, and
         * {@link #doWrite} drops writes to it while its last messages are still to be read.
         */
        void flushToClosedPeer() {
            writePending = false;
            flushNow();
        }

        /** Returns the peer's credits when due; a data path that failed to closes the channel. */
        void returnCreditsIfDue() {
            try {
                link.returnCreditsIfDue();
            } catch (IOException e) {
                pipeline().fireExceptionCaught(e);
                close(voidPromise());
            }
        }

        @Override
        public void connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
            if (promise.isDone() || !ensureOpen(promise)) {
                return;
            }
            clientConnect.connect(remoteAddress, localAddress, promise);
        }

        /** Netty's note of the address to a connect's failure, for {@link ClientConnect}. */
        Throwable annotate(Throwable cause, SocketAddress remoteAddress) {
            return annotateConnectException(cause, remoteAddress);
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

    /**
     * A {@link UcxSocketChannel} as its {@link UcxConnector} sees it: the side channel, the native connection and the
     * loop.
     */
    static final class ConnectorHost implements UcxConnector.Host {
        private final UcxSocketChannel channel;

        ConnectorHost(UcxSocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public void send(ByteBuffer bytes) throws IOException {
            channel.side.queue(bytes);
        }

        @Override
        public void flush() throws IOException {
            channel.flushSideChannel();
        }

        @Override
        public void expectAddress() {
            channel.side.makeRoomForAddress();
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return channel.remote;
        }

        @Override
        public int peerUid() {
            return channel.fd.isOpen() ? channel.fd.peerUid() : -1;
        }

        @Override
        public void keepAlive() {
            channel.fd.keepAlive(10, 2, 3);
        }

        @Override
        public UcxConnector.Endpoint newEndpoint() throws IOException {
            UcxConnection connection = channel.startConnection();
            return new UcxConnector.Endpoint(connection.id(), connection.tagSecret(), connection.messageKey(),
                    connection.recvWindow(), connection.recvUnit());
        }

        @Override
        public boolean endpointWiringUp() {
            UcxConnection connection = channel.link.connection();
            return connection != null && connection.isConnected() && !connection.wiredUp();
        }

        @Override
        public byte[] workerAddress() throws IOException {
            return channel.registration().worker().workerAddress();
        }

        @Override
        public UcxWorkerKey ownerKey() {
            return channel.registration().worker().ownerKey();
        }

        @Override
        public void connectDataPath(UcxDataPathPolicy.Choice choice, UcxHandshake.Hello hello) throws IOException {
            channel.connectDataPath(choice, hello);
        }

        @Override
        public void startPlain() throws IOException {
            channel.startPlain(DataPath.PLAIN_TCP);
        }

        @Override
        public Future<?> schedule(Runnable task, long millis) {
            return channel.eventLoop().schedule(task, millis, TimeUnit.MILLISECONDS);
        }

        @Override
        public boolean isOpen() {
            return channel.isOpen();
        }

        @Override
        public boolean isActive() {
            return channel.active;
        }

        @Override
        public void abort(IOException cause) {
            channel.peerVanished(cause);
        }

        @Override
        public void close() {
            channel.unsafe().close(channel.unsafe().voidPromise());
        }

        @Override
        public void fallBack(String why) {
            channel.clientConnect.fallBackToPlain(why);
        }

        @Override
        public void clientSilent() {
            channel.clientStayedSilent();
        }

        @Override
        public String toString() {
            return channel.toString();
        }
    }

    /**
     * A client {@link UcxSocketChannel}'s TCP connect: binds its socket when asked, connects it, finishes a connect
     * that was in progress and hands the connected socket to the channel's {@link UcxConnector}; when the server turns
     * out not to speak netty-ucx, drops that connection and connects again, as plain TCP. The connect promise and its
     * deadline are the {@link UcxConnectAttempt}'s. On the channel's event loop.
     */
    static final class ClientConnect {
        private static final InternalLogger logger = InternalLoggerFactory.getInstance(ClientConnect.class);
        private final UcxSocketChannel channel;
        /** The local address asked for (connect's, or bind's before it): a connect that starts over binds it again. */
        private InetSocketAddress localRequested;

        ClientConnect(UcxSocketChannel channel) {
            this.channel = channel;
        }

        /** Binds the side channel's socket before {@code connect()}, which then connects this socket. */
        void bind(SocketAddress localAddress) throws IOException {
            if (channel.fd.isOpen()) {
                throw new AlreadyBoundException();
            }
            InetSocketAddress bindTo = SocketAddresses.checkInet(localAddress);
            localRequested = bindTo;
            channel.fd.ownNewStream(bindTo.getAddress() instanceof Inet6Address);
            channel.fd.bind(SocketAddresses.ip(bindTo), bindTo.getPort());
            channel.addressesFromSocket(null);
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
                channel.fd.ownNewStream(target.getAddress() instanceof Inet6Address);
            } else if (localAddress != null) {
                throw new AlreadyBoundException();
            }
            if (localAddress != null) {
                InetSocketAddress bindTo = SocketAddresses.checkInet(localAddress);
                localRequested = bindTo;
                channel.fd.bind(SocketAddresses.ip(bindTo), bindTo.getPort());
            }
            if (channel.fd.connect(SocketAddresses.ip(target), target.getPort())) {
                tcpConnected();
            } else {
                channel.interest(UcxIoOps.IN_OUT);
            }
        }

        private void tcpConnected() throws IOException {
            channel.side.attach(channel.fd);
            channel.addressesFromSocket(channel.attempt.target());
            if (!channel.connector.tcpConnected()) {
                plainServer();
            }
        }

        /** The server does not speak netty-ucx: the connection is plain TCP on this socket, nothing was sent. */
        private void plainServer() throws IOException {
            channel.side.inbound();
            try {
                channel.startPlain(DataPath.PLAIN_TCP);
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
            channel.startOver();
            try {
                startConnect(target, localRequested);
            } catch (Throwable t) {
                failConnect(channel.unsafe().annotate(t, target));
            }
        }

        /** The socket became writable (or failed) while its connect was in progress. */
        void finishConnect() {
            try {
                if (channel.fd.finishConnect()) {
                    tcpConnected();
                }
            } catch (Throwable t) {
                failConnect(channel.unsafe().annotate(t, channel.attempt.target()));
            }
        }

        /** The connect failed: the promise fails with {@code cause}, and the channel closes. */
        void failConnect(Throwable cause) {
            channel.connector.failing(SetupFailure.IO, cause.getMessage());
            ChannelPromise promise = channel.attempt.take();
            if (promise != null) {
                promise.tryFailure(cause);
            }
            channel.unsafe().close(channel.unsafe().voidPromise());
        }
    }

    /**
     * What becomes of a {@link UcxSocketChannel}'s write once its peer has closed, as Netty's socket transports see
     * it over TCP: taken and dropped while the peer's last messages are still to be read, up to the channel's write
     * buffer high water mark (as TCP's kernel takes writes up to its send buffer), held back beyond that until those
     * messages are read; failed as a reset otherwise.
     */
    static final class ClosedPeerWrites {
        private static final InternalLogger logger = InternalLoggerFactory.getInstance(ClosedPeerWrites.class);

        private final UcxSocketChannel channel;
        /** Bytes of writes taken and dropped since the peer closed. */
        private long droppedAfterPeerClose;

        ClosedPeerWrites(UcxSocketChannel channel) {
            this.channel = channel;
        }

        /**
         * Returns true when the peer's close settled the writes of {@code in} (taken and dropped, or held), throws when
         * they fail, and returns false when they are to be sent.
         */
        boolean settle(ChannelOutboundBuffer in) throws IOException {
            UcxSession session = channel.session;
            if (lastMessagesToBeRead()) {
                if (session.peerReset()) {
                    throw new PeerResetBeforeReadException(channel.messagesReceived(), session.peerFinalSeq());
                }
                drop(in);
                // What was not dropped waits, the channel unwritable once it is a buffer's worth, until those
                // messages are read (failHeldWrites), or the channel closes.
                return true;
            }
            if (session.peerWillNotRead()) {
                throw new IOException("Connection reset by peer: the peer closed the connection");
            }
            return false;
        }

        /**
         * Fails, as a reset, the writes {@link #settle} held back while the closed peer's last messages were to be
         * read, once none are left to read (or the channel stopped reading). The read loop calls it after each round.
         */
        void failHeldWrites() {
            if (channel.writePending && channel.session.peerClosedInOrder() && !lastMessagesToBeRead()) {
                channel.unsafe().flushToClosedPeer();
            }
        }

        /** The peer closed in order, and the messages it sent before are still to arrive or to be read. */
        private boolean lastMessagesToBeRead() {
            return channel.session.peerClosedInOrder() && channel.peerHasMessagesToBeRead();
        }

        /**
         * The peer closed in order and its last messages are still to be read. Over TCP the kernel takes such a
         * write (the peer answers it with a reset later) and those messages stay readable; failing it instead
         * makes HTTP/2 (gRPC's client) close the connection at once, and the answers it had not read yet were
         * lost. So the write is taken and dropped, as the peer would never read it, and the channel reads on to
         * the peer's end; writes after that fail as a reset. As the kernel takes a send buffer's worth, this takes
         * the writes flushed so far up to the channel's write buffer high water mark since the peer's close, and
         * leaves the rest: taking every write would let a handler that writes whenever the channel is writable (as
         * each drop makes it) keep the loop for ever, and the peer's last messages would never be read.
         */
        private void drop(ChannelOutboundBuffer in) {
            long budget = channel.config().getWriteBufferHighWaterMark();
            if (!in.isEmpty() && droppedAfterPeerClose < budget && logger.isDebugEnabled()) {
                logger.debug("{} drops up to {} bytes written after the peer closed; {} of its {} messages are read",
                        channel, budget - droppedAfterPeerClose,
                        Integer.toUnsignedString(channel.messagesReceived()),
                        Integer.toUnsignedString(channel.session.peerFinalSeq()));
            }
            // Only the writes flushed before: a handler told that the channel is writable again adds more meanwhile.
            for (int n = in.size(); n > 0 && droppedAfterPeerClose < budget; n--) {
                droppedAfterPeerClose += bytes(in.current());
                in.remove(); // the write completes, as one the kernel took
            }
        }

        private static long bytes(Object msg) {
            if (msg instanceof ByteBuf) {
                return ((ByteBuf) msg).readableBytes();
            }
            if (msg instanceof FileRegion) {
                FileRegion region = (FileRegion) msg;
                return region.count() - region.transferred();
            }
            return 0;
        }

        /**
         * A write to a peer that closed with a reset ({@code SO_LINGER} 0) while its last messages are still
         * unread. Deliberately not an {@link IOException}: Netty then shuts the output down (failing the writes)
         * instead of closing the channel, so those messages can still be read, as Netty's socket transports do
         * when a write meets a reset.
         */
        private static final class PeerResetBeforeReadException extends ChannelException {
            private static final long serialVersionUID = 1L;

            PeerResetBeforeReadException(int messagesReceived, int peerFinalSeq) {
                super("Connection reset by peer (it closed with SO_LINGER 0); the output is shut down so that its last "
                        + "messages can still be read (" + Integer.toUnsignedString(messagesReceived) + " of its "
                        + Integer.toUnsignedString(peerFinalSeq) + " messages arrived)");
            }
        }
    }
}
