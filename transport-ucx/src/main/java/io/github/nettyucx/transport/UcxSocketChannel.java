/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
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
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ConnectionPendingException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SocketChannel} whose bytes travel as UCX tagged messages (shared memory on one host,
 * InfiniBand/RoCE across hosts). A small TCP connection, the side channel, carries the handshake
 * (UCP worker addresses) and close records, and its hang-up tells that the peer died. A peer UCX could
 * reach only over TCP gets the TCP data path instead ({@link UcxTcpDataPath}): the same messages, framed
 * on the side channel's socket, whose records then come through the connection.
 * <p>
 * Bytes are sent in {@link #doWrite} (through {@link UcxConnection#write}) and received in
 * {@link UcxSocketUnsafe#readReady()}.
 */
public final class UcxSocketChannel extends AbstractUcxChannel implements SocketChannel {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxSocketChannel.class);
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);
    /** A write reads the side channel itself when the loop has not polled sockets for this long. */
    private static final long STALE_SOCKET_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final UcxSocketChannelConfig config = new UcxSocketChannelConfig(this);
    private final UcxSideChannel side = new UcxSideChannel();
    private final Runnable readTask = () -> ((UcxSocketUnsafe) unsafe()).readReady();
    private UcxConnection connection;
    private UcxHandshake.Hello peer;
    private volatile boolean active;
    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;
    private boolean tcpConnected;
    /** Messages the peer sent before it shut down its output or closed; -1 while it has not. */
    private int peerFinalSeq = -1;
    private boolean peerClosed;
    private boolean peerGone;
    private boolean sideEof;
    private boolean writePending;
    private boolean readPending;
    private boolean readTaskScheduled;
    private boolean inputClosedSeenErrorOnRead;
    /** Set while side-channel input is parsed: handlers called from there must not read it again. */
    private boolean parsingSideChannel;
    private ChannelPromise connectPromise;
    private Future<?> connectTimeoutFuture;
    private InetSocketAddress requestedRemote;

    /** A client channel, connected with {@code connect()}. */
    public UcxSocketChannel() {
        super(null, -1);
    }

    /**
     * A channel accepted by {@code parent}; its handshake starts once it is registered, and it
     * becomes active (firing {@code channelActive}) when its UCX endpoint exists, so that what a
     * handler writes in {@code channelActive} can leave at once, as on an accepted TCP socket.
     */
    UcxSocketChannel(UcxServerSocketChannel parent, int fd) {
        super(parent, fd);
        this.tcpConnected = true;
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
     * as UCX describes its endpoint.
     */
    public Future<String> ucxLanes() {
        EventLoop loop = eventLoop();
        return loop.submit(() -> connection == null ? "no UCX endpoint yet" : connection.describe());
    }

    @Override
    protected void registered() throws Exception {
        if (tcpConnected && connection == null) {
            startHandshake();
            scheduleAcceptedHandshakeTimeout();
        }
    }

    /**
     * An accepted connection whose peer does not finish the hello within the channel's connect
     * timeout is closed: otherwise a client that stops halfway would hold a socket and a UCX
     * connection forever.
     */
    private void scheduleAcceptedHandshakeTimeout() {
        int timeoutMillis = config.getConnectTimeoutMillis();
        if (timeoutMillis <= 0) {
            return;
        }
        connectTimeoutFuture = eventLoop().schedule(() -> {
            if (isOpen() && !active) {
                logger.warn("{} closed: the peer did not complete the netty-ucx handshake within {} ms", this,
                        timeoutMillis);
                unsafe().close(unsafe().voidPromise());
            }
        }, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Creates the UCX connection (posting its receives) and sends our hello. */
    private void startHandshake() throws IOException {
        UcxIoHandler.Registration registration = registration();
        int index = registration.bindConnection();
        connection = UcxConnection.create(registration.worker(), index, config.recvWindow(), config.recvUnit(),
                config.sendSlots());
        UcxNative.socketKeepAlive(fd, 10, 2, 3);
        side.queue(UcxHandshake.encodeHello(connection.id(), connection.recvWindow(), connection.recvUnit(),
                registration.worker().workerAddress()));
        flushSideChannel();
    }

    private void flushSideChannel() throws IOException {
        interest(side.flush(fd) ? UcxIoOps.IN : UcxIoOps.IN_OUT);
    }

    /**
     * True while messages the peer sent before its close are still to arrive or to be read, and this channel
     * reads: a write to the closed peer then shuts the output down, keeping them readable. A channel that
     * does not read would never reach the close and would stay open; it is reset instead, as over TCP.
     */
    private boolean peerHasMessagesToBeRead() {
        return connection != null && !inputShutdown && readWanted()
                && (connection.hasReadable() || connection.messagesReceived() < peerFinalSeq);
    }

    private boolean atEndOfInput() {
        return peerFinalSeq >= 0 && connection != null && connection.messagesReceived() == peerFinalSeq;
    }

    private boolean shouldBreakReading() {
        return inputShutdown && (inputClosedSeenErrorOnRead || !config.isAllowHalfClosure());
    }

    private boolean readWanted() {
        return config.isAutoRead() || readPending;
    }

    /**
     * Schedules the read loop when bytes are wanted and there, or when the peer's end of stream is
     * reached: like epoll's EPOLLRDHUP, that is delivered even without a pending read.
     */
    private void scheduleReadIfNeeded() {
        if (!readTaskScheduled && readable()) {
            readTaskScheduled = true;
            eventLoop().execute(readTask);
        }
    }

    private boolean readable() {
        return active && connection != null
                && (readWanted() && connection.hasReadable() || atEndOfInput() && !inputClosedSeenErrorOnRead);
    }

    void clearReadPending() {
        if (isRegistered() && !eventLoop().inEventLoop()) {
            eventLoop().execute(() -> readPending = false);
        } else {
            readPending = false;
        }
    }

    @Override
    protected void doBeginRead() {
        readPending = true;
        scheduleReadIfNeeded();
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof ByteBuf) {
            return msg;
        }
        throw new UnsupportedOperationException("unsupported message type: " + StringUtil.simpleClassName(msg)
                + " (expected: " + StringUtil.simpleClassName(ByteBuf.class) + ')');
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        if (!registration().worker().socketsPolledWithin(STALE_SOCKET_POLL_NANOS)) {
            ((UcxSocketUnsafe) unsafe()).readSideChannelNow();
        }
        if (peerClosed && !peerGone && peerHasMessagesToBeRead()) {
            throw new PeerClosedBeforeReadException(connection.messagesReceived(), peerFinalSeq);
        }
        if (peerGone || peerClosed) {
            throw new IOException("Connection reset by peer: the peer closed the connection");
        }
        if (connection == null || !connection.isConnected()) {
            // Only reachable through a write issued before the channel became active.
            writePending = !in.isEmpty();
            return;
        }
        writePending = !connection.write(in);
    }

    @Override
    protected void doShutdownOutput() throws Exception {
        if (connection != null && fd >= 0 && !sideEof && !peerClosed) {
            if (connection.tcpDataPath()) {
                connection.sendRecord(UcxHandshake.RECORD_SHUTDOWN_OUTPUT);
            } else {
                side.queueRecord(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, connection.messagesSent());
                flushSideChannel();
            }
        }
        outputShutdown = true;
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        throw new UnsupportedOperationException("bind a UcxSocketChannel through connect(remote, local)");
    }

    @Override
    protected void doDisconnect() throws Exception {
        doClose();
    }

    @Override
    protected void doClose() throws Exception {
        active = false;
        open = false;
        inputClosedSeenErrorOnRead = true;
        ChannelPromise promise = takeConnectPromise();
        if (promise != null) {
            promise.tryFailure(new ClosedChannelException());
        }
        int sideFd = fd;
        fd = -1;
        UcxIoHandler.Registration registration = registration();
        if (registration != null) {
            registration.removeFromEpoll();
        }
        if (connection != null) {
            sendCloseRecord(sideFd);
            connection.close(sideFd, peerGone || peer == null);
            if (registration != null) {
                registration.unbindConnection();
            }
        } else if (sideFd >= 0) {
            UcxNative.socketClose(sideFd);
        }
        side.release();
    }

    /** Ends the pending connect attempt, if any: cancels its timeout and returns its promise. */
    private ChannelPromise takeConnectPromise() {
        ChannelPromise promise = connectPromise;
        connectPromise = null;
        cancelConnectTimeout();
        return promise;
    }

    private void cancelConnectTimeout() {
        if (connectTimeoutFuture != null) {
            connectTimeoutFuture.cancel(false);
            connectTimeoutFuture = null;
        }
    }

    /** Tells the peer how many messages to expect before end of stream; best effort, the socket closes later. */
    private void sendCloseRecord(int sideFd) {
        if (peer == null || peerGone || sideEof || sideFd < 0) {
            return;
        }
        try {
            if (connection.tcpDataPath()) {
                connection.sendRecord(UcxHandshake.RECORD_CLOSE);
            } else {
                side.queueRecord(UcxHandshake.RECORD_CLOSE, connection.messagesSent());
                side.flush(sideFd);
            }
        } catch (IOException e) {
            logger.debug("Could not send the close record to {}", remote, e);
        }
    }

    @Override
    protected void abandonNative() {
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

    // ---- DuplexChannel ----

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
        EventLoop loop = eventLoop();
        if (loop.inEventLoop()) {
            ((AbstractUnsafe) unsafe()).shutdownOutput(promise);
        } else {
            loop.execute(() -> ((AbstractUnsafe) unsafe()).shutdownOutput(promise));
        }
        return promise;
    }

    @Override
    public ChannelFuture shutdownInput() {
        return shutdownInput(newPromise());
    }

    @Override
    public ChannelFuture shutdownInput(ChannelPromise promise) {
        EventLoop loop = eventLoop();
        if (loop.inEventLoop()) {
            shutdownInput0(promise);
        } else {
            loop.execute(() -> shutdownInput0(promise));
        }
        return promise;
    }

    private void shutdownInput0(ChannelPromise promise) {
        if (!isOpen()) {
            promise.setFailure(new ClosedChannelException());
            return;
        }
        inputShutdown = true;
        promise.setSuccess();
    }

    @Override
    public ChannelFuture shutdown() {
        return shutdown(newPromise());
    }

    @Override
    public ChannelFuture shutdown(ChannelPromise promise) {
        ChannelFuture outputDone = shutdownOutput();
        outputDone.addListener((ChannelFutureListener) f -> {
            ChannelFuture inputDone = shutdownInput();
            inputDone.addListener((ChannelFutureListener) g -> {
                Throwable cause = f.cause() != null ? f.cause() : g.cause();
                if (cause != null) {
                    promise.setFailure(cause);
                } else {
                    promise.setSuccess();
                }
            });
        });
        return promise;
    }

    /**
     * Receives the loop's events: side-channel socket readiness, and completions of the UCX
     * connection's sends and receives.
     */
    final class UcxSocketUnsafe extends UcxUnsafe {

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
            // While waiting for credit or the handshake, completionsReady() resumes the flush.
            if (writePending) {
                return;
            }
            if (acceptedAwaitingHandshake()) {
                // An accepted TCP socket could write at once; hold the bytes until activate().
                writePending = true;
                return;
            }
            super.flush0();
        }

        /**
         * An accepted channel is registered (its initializer runs) before the peer's hello arrives,
         * and a handler may write to it right away, as to an accepted TCP socket. Netty would fail
         * those writes because the channel is not active yet.
         */
        private boolean acceptedAwaitingHandshake() {
            return parent() != null && !active && peer == null && isOpen();
        }

        @Override
        public void connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
            if (promise.isDone() || !ensureOpen(promise)) {
                return;
            }
            try {
                if (connectPromise != null) {
                    throw new ConnectionPendingException();
                }
                if (connection != null || tcpConnected) {
                    throw new AlreadyConnectedException();
                }
                InetSocketAddress target = SocketAddresses.checkInet(remoteAddress);
                connectPromise = promise;
                requestedRemote = target;
                scheduleConnectTimeout(target);
                promise.addListener((ChannelFutureListener) f -> {
                    if (f.isCancelled()) {
                        if (connectTimeoutFuture != null) {
                            connectTimeoutFuture.cancel(false);
                        }
                        connectPromise = null;
                        close(voidPromise());
                    }
                });
                startConnect(target, localAddress);
            } catch (Throwable t) {
                failConnect(annotateConnectException(t, remoteAddress));
            }
        }

        private void scheduleConnectTimeout(InetSocketAddress target) {
            int timeoutMillis = config.getConnectTimeoutMillis();
            if (timeoutMillis <= 0) {
                return;
            }
            connectTimeoutFuture = eventLoop().schedule(() -> {
                ChannelPromise pending = connectPromise;
                if (pending != null && !pending.isDone() && pending.tryFailure(new ConnectTimeoutException(
                        "connection timed out after " + timeoutMillis + " ms: " + target))) {
                    close(voidPromise());
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }

        private void startConnect(InetSocketAddress target, SocketAddress localAddress) throws IOException {
            fd = UcxNative.socketStream(target.getAddress() instanceof Inet6Address);
            if (localAddress != null) {
                InetSocketAddress bindTo = SocketAddresses.checkInet(localAddress);
                UcxNative.socketBind(fd, SocketAddresses.ip(bindTo), bindTo.getPort());
            }
            if (UcxNative.socketConnect(fd, SocketAddresses.ip(target), target.getPort())) {
                tcpConnected();
            } else {
                interest(UcxIoOps.IN_OUT);
            }
        }

        private void tcpConnected() throws IOException {
            tcpConnected = true;
            local = SocketAddresses.decode(UcxNative.socketLocalAddress(fd));
            InetSocketAddress actual = SocketAddresses.decode(UcxNative.socketRemoteAddress(fd));
            remote = actual != null ? actual : requestedRemote;
            startHandshake();
        }

        private void finishConnect() {
            try {
                if (UcxNative.socketFinishConnect(fd)) {
                    tcpConnected();
                }
            } catch (Throwable t) {
                failConnect(annotateConnectException(t, requestedRemote));
            }
        }

        private void failConnect(Throwable cause) {
            ChannelPromise promise = takeConnectPromise();
            if (promise != null) {
                promise.tryFailure(cause);
            }
            close(voidPromise());
        }

        private void fulfillConnect() {
            ChannelPromise promise = takeConnectPromise();
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

        private void socketReady(int ops) {
            if (!tcpConnected) {
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

        /**
         * Like a TCP send that fails once the kernel saw the peer's reset: picks up a close record
         * the blocked loop has not processed, without closing the channel in the middle of a write
         * (the loop handles the end of the side channel as usual).
         */
        void readSideChannelNow() {
            if (fd < 0 || peer == null || sideEof || parsingSideChannel) {
                return;
            }
            if (connection.tcpDataPath()) {
                // The loop serves the data path's socket with its progress, which it has not run lately.
                connection.readTcpDataPath();
            }
            boolean more;
            try {
                more = fillSideChannel();
                ByteBuffer in = side.inbound();
                try {
                    parseRecords(in);
                } finally {
                    side.consumed();
                }
            } catch (IOException e) {
                peerGone = true;
                return;
            }
            if (!more && !peerClosed) {
                peerGone = true;
            }
            if (!more) {
                eventLoop().execute(() -> {
                    if (isOpen() && !sideEof) {
                        sideChannelClosed();
                    }
                });
            }
        }

        /** Reads the side channel's input: from the socket, or on the TCP data path the records it took off it. */
        private boolean fillSideChannel() throws IOException {
            return connection != null && connection.tcpDataPath() ? side.fill(connection) : side.fill(fd);
        }

        private void sideChannelReadable() {
            boolean fromDataPath = connection != null && connection.tcpDataPath();
            boolean more;
            try {
                more = fillSideChannel();
            } catch (IOException e) {
                peerVanished(e);
                return;
            }
            ProtocolException protocolFailure = null;
            IOException ioFailure = null;
            ByteBuffer in = side.inbound();
            parsingSideChannel = true;
            try {
                if (peer == null) {
                    UcxHandshake.Hello hello = UcxHandshake.decodeHello(in);
                    if (hello != null) {
                        handshakeReceived(hello);
                    }
                }
                if (peer != null) {
                    parseRecords(in);
                }
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
            if (peer != null && !active && isOpen()) {
                // Outside the parser: handlers called from here may write, block, or read the side channel.
                activate();
            }
            // A socket handed to the TCP data path just now: its end is for the data path to find,
            // after the bytes before it.
            boolean handedOver = !fromDataPath && connection != null && connection.tcpDataPath();
            if (!more && isOpen() && !handedOver) {
                sideChannelClosed();
            }
        }

        private void handshakeReceived(UcxHandshake.Hello hello) throws IOException {
            UcxHandshake.checkWorkerAddress(hello.workerAddress, registration().worker().workerAddress());
            peer = hello;
            if (hello.tcpDataPath()) {
                // The data path watches the socket from now on, in the worker's own set.
                registration().removeFromEpoll();
                connection.connectOverTcp(hello, fd, side);
                logger.debug("{} on the TCP data path (the peer is reachable only over TCP)", UcxSocketChannel.this);
                return;
            }
            connection.connect(hello);
            if (logger.isDebugEnabled()) {
                logger.debug("{} UCX endpoint ready (same host: {}, peer error handling: {})", UcxSocketChannel.this,
                        hello.sameHost(), hello.peerErrorHandling());
            }
        }

        /** The endpoint exists: complete the connect, or activate the accepted channel. */
        private void activate() {
            if (connectPromise != null) {
                fulfillConnect();
            } else {
                cancelConnectTimeout();
                active = true;
                pipeline().fireChannelActive();
            }
            resumeWriting();
            scheduleReadIfNeeded();
        }

        private void parseRecords(ByteBuffer in) throws ProtocolException {
            while (in.remaining() >= UcxHandshake.RECORD_BYTES) {
                byte type = in.get();
                int messages = in.getInt();
                if (type == UcxHandshake.RECORD_CLOSE) {
                    peerClosed = true;
                } else if (type != UcxHandshake.RECORD_SHUTDOWN_OUTPUT) {
                    throw new ProtocolException("unknown side-channel record type " + type);
                }
                if (messages < connection.messagesReceived()) {
                    throw new ProtocolException("peer claims " + messages + " messages but "
                            + connection.messagesReceived() + " arrived");
                }
                peerFinalSeq = messages;
                scheduleReadIfNeeded();
            }
            if (peerClosed && writePending && isOpen()) {
                // Our waiting writes need credits the peer will never return. Over TCP its kernel
                // would answer them with a reset; without reading to the end we would never notice.
                if (peerHasMessagesToBeRead()) {
                    // doWrite fails them and shuts the output down; the peer's last messages stay readable.
                    resumeWriting();
                    return;
                }
                peerVanished(new IOException("Connection reset by peer: it closed while our writes waited for it "
                        + "to read"));
            }
        }

        /** End of the side channel: normal after a close record, otherwise the peer died or reset. */
        private void sideChannelClosed() {
            sideEof = true;
            interest(UcxIoOps.NONE);
            if (!peerClosed) {
                peerVanished(new IOException(endWithoutCloseRecord()));
            }
        }

        private String endWithoutCloseRecord() {
            if (peer == null) {
                return "Connection reset by peer during the UCX handshake";
            }
            String socketError = connection.tcpDataPath() ? connection.tcpDataPathEndError() : null;
            return socketError != null
                    ? "Connection lost: " + socketError + " (the peer or the link to it is gone)"
                    : "Connection reset by peer (its side channel closed without a close record)";
        }

        private void protocolError(ProtocolException e) {
            logger.warn("Closing {}: the peer does not speak the netty-ucx protocol: {}", UcxSocketChannel.this,
                    e.getMessage());
            peerGone = true;
            if (connectPromise != null) {
                failConnect(new ConnectException("handshake with " + requestedRemote + " failed: "
                        + e.getMessage()));
            } else {
                pipeline().fireExceptionCaught(e);
                close(voidPromise());
            }
        }

        private void peerVanished(IOException cause) {
            UcxIoHandler.Registration registration = registration();
            if (peer != null && peer.sameHost() && !connection.tcpDataPath() && !peerGone && !peerClosed
                    && registration != null) {
                registration.handler().probeSharedMemory();
            }
            peerGone = true;
            if (connectPromise != null) {
                ConnectException connectFailure = new ConnectException("connection to " + requestedRemote
                        + " failed: " + cause.getMessage());
                connectFailure.initCause(cause);
                failConnect(connectFailure);
            } else if (isOpen()) {
                pipeline().fireExceptionCaught(cause);
                close(voidPromise());
            }
        }

        @Override
        boolean workerLost(IOException cause) {
            if (connection == null || !isOpen()) {
                return false;
            }
            // Nothing of ours can be flushed, and the peer must not take our end for an orderly close.
            peerGone = true;
            peerVanished(cause);
            return true;
        }

        private void completionsReady() {
            if (connection == null || !isOpen()) {
                return;
            }
            connection.clearNotified();
            connection.releaseCompletedSends();
            int error = connection.endpointError();
            if (error != 0) {
                String path = connection.tcpDataPath() ? "TCP data path" : "UCX endpoint";
                peerVanished(new IOException(path + " failed: " + UcxNative.statusString(error)));
                return;
            }
            if (connection.sideInputReady()) {
                sideChannelReadable();
                if (!isOpen()) {
                    return;
                }
            }
            resumeWriting();
            if (readable()) {
                // Like epoll's handler: read at once, in the loop's own dispatch.
                readReady();
            }
            try {
                connection.returnCreditsIfDue();
            } catch (IOException e) {
                pipeline().fireExceptionCaught(e);
                close(voidPromise());
            }
        }

        private void resumeWriting() {
            if (!writePending) {
                return;
            }
            try {
                if (!connection.canSend()) {
                    return;
                }
            } catch (IOException e) {
                pipeline().fireExceptionCaught(e);
                close(voidPromise());
                return;
            }
            writePending = false;
            super.flush0();
        }

        /** Delivers arrived bytes in sequence order, like epoll's read loop delivers socket reads. */
        void readReady() {
            readTaskScheduled = false;
            if (!active || connection == null) {
                return;
            }
            if (shouldBreakReading()) {
                discardInput();
                return;
            }
            if (!readWanted() && !atEndOfInput()) {
                return;
            }
            ChannelPipeline pipeline = pipeline();
            ByteBufAllocator allocator = config.getAllocator();
            RecvByteBufAllocator.Handle allocHandle = recvBufAllocHandle();
            allocHandle.reset(config);
            ByteBuf byteBuf = null;
            boolean endOfInput = false;
            try {
                do {
                    if (atEndOfInput()) {
                        endOfInput = true;
                        readPending = false;
                        break;
                    }
                    if (!connection.hasReadable()) {
                        break;
                    }
                    // The handle's guess bounds a read, as the user's RecvByteBufAllocator expects.
                    byteBuf = connection.readInPlace(allocHandle.guess());
                    if (byteBuf != null) {
                        allocHandle.attemptedBytesRead(byteBuf.readableBytes());
                        allocHandle.lastBytesRead(byteBuf.readableBytes());
                    } else {
                        byteBuf = allocHandle.allocate(allocator);
                        allocHandle.attemptedBytesRead(byteBuf.writableBytes());
                        allocHandle.lastBytesRead(connection.read(byteBuf));
                    }
                    if (allocHandle.lastBytesRead() <= 0) {
                        byteBuf.release();
                        byteBuf = null;
                        break;
                    }
                    allocHandle.incMessagesRead(1);
                    readPending = false;
                    pipeline.fireChannelRead(byteBuf);
                    byteBuf = null;
                    if (shouldBreakReading() || !isOpen()) {
                        break;
                    }
                } while (allocHandle.continueReading());
                allocHandle.readComplete();
                pipeline.fireChannelReadComplete();
                if (isOpen()) {
                    connection.returnCreditsIfDue();
                }
                if (endOfInput) {
                    shutdownInput(true);
                }
            } catch (Throwable t) {
                handleReadException(pipeline, byteBuf, t, allocHandle);
            } finally {
                if (isOpen()) {
                    scheduleReadIfNeeded();
                }
            }
        }

        private void discardInput() {
            try {
                connection.discardReadable();
                connection.returnCreditsIfDue();
            } catch (IOException e) {
                pipeline().fireExceptionCaught(e);
                close(voidPromise());
            }
        }

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
                close(voidPromise());
            }
        }

        /** Peer's end of stream reached: half-close when allowed, else close, as Netty's socket transports do. */
        private void shutdownInput(boolean allDataRead) {
            if (!inputShutdown) {
                if (config.isAllowHalfClosure()) {
                    inputShutdown = true;
                    pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
                } else {
                    close(voidPromise());
                    return;
                }
            }
            if (allDataRead && !inputClosedSeenErrorOnRead) {
                inputClosedSeenErrorOnRead = true;
                pipeline().fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
            }
        }
    }

    /**
     * A write to a peer that has closed while its last messages are still unread. Deliberately not an
     * {@link IOException}: Netty then shuts the output down (failing the writes) instead of closing the
     * channel, so those messages can still be read, as they can be from a TCP socket the peer reset.
     */
    private static final class PeerClosedBeforeReadException extends ChannelException {
        private static final long serialVersionUID = 1L;

        PeerClosedBeforeReadException(int messagesReceived, int peerFinalSeq) {
            super("the peer closed the connection and will not read this write; the output is shut down so that "
                    + "the peer's last messages can still be read (" + messagesReceived + " of its "
                    + peerFinalSeq + " messages arrived)");
        }
    }
}
