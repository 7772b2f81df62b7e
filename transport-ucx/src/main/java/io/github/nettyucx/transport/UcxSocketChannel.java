/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.FileRegion;
import io.netty.channel.IoEvent;
import io.netty.channel.IoRegistration;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.internal.StringUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NotYetConnectedException;
import java.util.concurrent.RejectedExecutionException;

/**
 * A {@link SocketChannel} whose bytes travel through UCX (shared memory on one host, InfiniBand/RoCE
 * across hosts) or, for a peer UCX could reach only over TCP, as plain TCP on the connection's own socket: the data
 * path chosen when the peer's hello arrives. That TCP connection, the side channel, carries the handshake and, with
 * UCX, then the close records; its hang-up tells that the peer died. A peer that does not speak netty-ucx gets
 * plain TCP on that socket too.
 * <p>
 * Who does what: the channel holds one {@link UcxLink} for its phase (the handshake, then the data path), through
 * which bytes leave ({@link #doWrite}; {@link UcxClosedPeerWrites} once the peer closed); {@link UcxClientConnect}
 * connects a client's socket; {@link UcxConnector} sets the connection up; {@link UcxSessionEvents} takes the
 * socket's events and the side channel's input to the {@link UcxSession};
 * {@link UcxSocketReadLoop} hands arrived bytes up the pipeline; {@link UcxSocketClose} ends the connection. The
 * loop's events enter at {@link UcxSocketUnsafe#handle}.
 */
public final class UcxSocketChannel extends AbstractUcxChannel implements SocketChannel {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxSocketChannel.class);
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);

    private final UcxSocketChannelConfig config = new UcxSocketChannelConfig(this);
    final UcxSideChannel side = new UcxSideChannel();
    /** Sets the connection up: the handshake, the choice of the data path, a client's fallback to plain TCP. */
    final UcxConnector connector;
    /** A client's connect promise and deadline (the connector's). */
    final UcxConnectAttempt attempt;
    /** A client's TCP connect, and its start over as plain TCP. */
    final UcxClientConnect clientConnect = new UcxClientConnect(this);
    final UcxSessionEvents events = new UcxSessionEvents(this);
    final UcxSocketReadLoop readLoop = new UcxSocketReadLoop(this);
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
    /** Bytes of writes taken and dropped since the peer closed ({@link UcxClosedPeerWrites}). */
    long droppedAfterPeerClose;
    private final Runnable retryWrite = () -> {
        if (isOpen()) {
            unsafe().resumeWriting();
        }
    };
    /** Resumes, from the loop's next tasks, a write a FileRegion without bytes to give held back. */
    final Runnable retryWriteLater = () -> eventLoop().execute(retryWrite);

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
            readLoop.scheduleIfNeeded();
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
    void startPlain(UcxTransportMetrics.DataPath kind) throws IOException {
        UcxPlainDataPath plain = new UcxPlainDataPath(fd.get(), kind, side.takeInbound(), side.takeOutbound(), config,
                this::interest, retryWriteLater);
        // The side channel carries nothing from now on: its buffers go now, not with the channel.
        side.release();
        link = plain;
        plain.registered(registration());
        readLoop.wantedChanged();
        // The socket's own family: an IPv6 socket may carry an IPv4 peer, whose address Java reports as IPv4.
        byte[] socketAddress = UcxNative.socketLocalAddress(fd.get());
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
            startPlain(UcxTransportMetrics.DataPath.TCP_DATA_PATH);
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
    protected void doBeginRead() {
        readLoop.begin();
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

    /** Where bytes leave: through the link, unless the peer's close settles them ({@link UcxClosedPeerWrites}). */
    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        if (UcxClosedPeerWrites.settle(this, in)) {
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
        readLoop.inputClosedSeenErrorOnRead = true;
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
    final class UcxSocketUnsafe extends UcxUnsafe {
        /**
         * Set while this channel's writes run: a handler that writes from inside them (on a writability change) must
         * not take in the side channel's input, as the writes under way would end without seeing the peer's close.
         */
        private boolean flushing;

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            UcxIoEvent ucxEvent = (UcxIoEvent) event;
            if (ucxEvent.isCompletion()) {
                events.completionsReady();
            } else {
                events.socketReady(ucxEvent.epollEvents());
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
                events.catchUpBeforeFlush();
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

        /** Netty's note of the address to a connect's failure, for {@link UcxClientConnect}. */
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
            events.peerVanished(cause);
            return true;
        }
    }
}
