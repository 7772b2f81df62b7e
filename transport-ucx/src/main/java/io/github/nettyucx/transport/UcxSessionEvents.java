/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.netty.channel.ChannelPromise;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.util.concurrent.TimeUnit;

/**
 * Where a {@link UcxSocketChannel}'s socket events and its connection's completions arrive, and what its
 * {@link UcxSession} makes of the side channel's input: the peer's hello (the channel becomes active), its records
 * (the end of its output, its close), the end of the side channel's stream, a client that stays silent, and the
 * peer's loss. On the channel's event loop.
 */
final class UcxSessionEvents {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxSessionEvents.class);
    private static final PeerWarnings PEER_WARNINGS = new PeerWarnings(logger);
    /** A flush takes in the side channel's input itself when the loop has not polled sockets for this long. */
    private static final long STALE_SOCKET_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final UcxSocketChannel channel;
    /** Set while side-channel input is parsed: handlers called from there must not read it again. */
    private boolean parsing;

    UcxSessionEvents(UcxSocketChannel channel) {
        this.channel = channel;
    }

    /**
     * A flush from a handler that has kept the loop from polling its sockets: takes in the side channel's input
     * first, as the loop would have, so that a write after the peer's reset fails as a TCP send does once the
     * kernel saw the reset (Netty's half-close conformance writes from a blocked loop). Not from a flush inside
     * another flush of the channel (the unsafe sees to that): the writes under way would end without seeing what it
     * found.
     */
    void catchUpBeforeFlush() {
        UcxLink link = channel.link;
        if (!channel.active || link.kind() == null || link.connection() == null || !channel.fd.isOpen()
                || channel.session.isSideChannelEnded() || parsing
                || channel.registration().worker().socketsPolledWithin(STALE_SOCKET_POLL_NANOS)) {
            return;
        }
        sideChannelReadable();
    }

    /**
     * The channel's socket is ready ({@code ops}: epoll's events): a client's connect finished, the side channel
     * can take more or has input, or, on plain TCP, the data path's socket is ready.
     */
    void socketReady(int ops) {
        UcxSocketChannel.UcxSocketUnsafe unsafe = channel.unsafe();
        if (channel.link instanceof UcxPlainDataPath) {
            // Writes that waited for room go on, bytes that arrived are read.
            ((UcxPlainDataPath) channel.link).socketReady(ops);
            unsafe.resumeWriting();
            if (channel.isOpen() && channel.readLoop.readable()) {
                channel.readLoop.read();
            }
            return;
        }
        if (!channel.session.isTcpConnected()) {
            if ((ops & (UcxNative.EPOLLOUT | UcxNative.EPOLLERR | UcxNative.EPOLLHUP)) != 0) {
                channel.clientConnect.finishConnect();
            }
            return;
        }
        if ((ops & UcxNative.EPOLLOUT) != 0 && channel.fd.isOpen()) {
            try {
                channel.flushSideChannel();
            } catch (IOException e) {
                peerVanished(e);
                return;
            }
        }
        if ((ops & (UcxNative.EPOLLIN | UcxNative.EPOLLERR | UcxNative.EPOLLHUP | UcxNative.EPOLLRDHUP)) != 0
                && channel.fd.isOpen()) {
            sideChannelReadable();
        }
    }

    /**
     * Sends and receives of the connection completed: release what finished sends held, resume writes, read, return
     * credits.
     */
    void completionsReady() {
        UcxConnection connection = channel.link.connection();
        if (connection == null || !channel.isOpen()) {
            return;
        }
        connection.clearNotified();
        connection.releaseCompletedSends();
        int error = connection.endpointError();
        if (error != 0) {
            peerVanished(new IOException(channel.link + " failed: " + UcxNative.statusString(error)));
            return;
        }
        try {
            connection.wakeIfHeld();
        } catch (IOException e) {
            peerVanished(e);
            return;
        }
        UcxSocketChannel.UcxSocketUnsafe unsafe = channel.unsafe();
        unsafe.resumeWriting();
        if (channel.readLoop.readable()) {
            // Like epoll's handler: read at once, in the loop's own dispatch.
            channel.readLoop.read();
        }
        unsafe.returnCreditsIfDue();
    }

    /** Side-channel input arrived on its socket. */
    void sideChannelReadable() {
        UcxRecordLink records = channel.link.records();
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
            peerInputEnds = channel.session.input(channel.side.inbound(), channel.messagesReceived());
        } catch (ProtocolException e) {
            protocolFailure = e;
        } catch (IOException e) {
            ioFailure = e;
        } finally {
            channel.side.consumed();
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
            if (!channel.isOpen()) {
                return;
            }
        }
        if (channel.session.isEstablished() && !channel.active && channel.isOpen()) {
            // Outside the parser: handlers called from here may write, block, or read the side channel.
            activate();
        }
        // A socket that became plain TCP just now: its end is for that data path to find, after the bytes before it.
        boolean handedOver = channel.link.records() != records;
        if (!more && channel.isOpen() && !handedOver) {
            sideChannelClosed();
        }
    }

    /** A record announced the end of the peer's output (it shut down or closed). */
    private void peerInputEnds() {
        channel.readLoop.scheduleIfNeeded();
        if (!channel.session.peerClosedInOrder() || !channel.writePending || !channel.isOpen()) {
            return;
        }
        // Our waiting writes need credits the peer will never return. Over TCP its kernel would answer
        // them with a reset; without reading to the end we would never notice.
        if (channel.readLoop.peerHasMessagesToBeRead()) {
            // doWrite drops them, as TCP's kernel would take them; the peer's last messages stay readable.
            channel.unsafe().flushToClosedPeer();
            return;
        }
        peerVanished(new IOException("Connection reset by peer: it closed while our writes waited for it to read"));
    }

    /**
     * The accepted client sent nothing for {@link UcxChannelOption#CLIENT_BYTES_WAIT_MILLIS}: plain TCP (a
     * netty-ucx client sends its hello as soon as it is connected), so that a server that speaks first can.
     */
    void clientStayedSilent() {
        UcxSession session = channel.session;
        if (!channel.isOpen() || session.state() != UcxSession.State.AWAITING_CLIENT) {
            return;
        }
        // Bytes this loop has not processed yet (it may have been busy) decide, not the time.
        sideChannelReadable();
        // A client that sent the start of the magic and stopped is left to the handshake timeout.
        if (!channel.isOpen() || session.state() != UcxSession.State.AWAITING_CLIENT
                || channel.side.hasUnparsedInput()) {
            return;
        }
        // The data path takes the side channel's input as it takes it after a hello: in read mode.
        channel.side.inbound();
        try {
            session.clientSilent();
        } catch (IOException e) {
            peerVanished(e);
            return;
        } finally {
            channel.side.consumed();
        }
        activate();
    }

    /** The data path is up: complete the connect, or activate the accepted channel. */
    void activate() {
        channel.connector.opened(channel.link.kind(), channel.local, channel.remote);
        ChannelPromise promise = channel.attempt.take();
        channel.active = true;
        boolean promiseSet = promise == null || promise.trySuccess();
        channel.pipeline().fireChannelActive();
        if (!promiseSet) {
            // The user cancelled the connect as it completed.
            channel.unsafe().close(channel.unsafe().voidPromise());
            return;
        }
        channel.unsafe().resumeWriting();
        channel.readLoop.scheduleIfNeeded();
    }

    /** End of the side channel: normal after a close record, otherwise the peer died or reset. */
    void sideChannelClosed() {
        IOException cause = channel.session.sideChannelEnded();
        channel.interest(UcxIoOps.NONE);
        if (cause != null) {
            peerVanished(cause);
        }
    }

    private void protocolError(ProtocolException e) {
        UcxConnector connector = channel.connector;
        if (connector.mayFallBack()) {
            channel.clientConnect.fallBackToPlain(e.getMessage());
            return;
        }
        PEER_WARNINGS.warn("Closing {}: the peer does not speak the netty-ucx protocol: {}", channel, e.getMessage());
        connector.failing(UcxTransportMetrics.SetupFailure.PROTOCOL, e.getMessage());
        channel.session.peerLost();
        if (channel.attempt.isPending()) {
            channel.clientConnect.failConnect(connector.handshakeFailed(e));
        } else {
            channel.pipeline().fireExceptionCaught(e);
            channel.unsafe().close(channel.unsafe().voidPromise());
        }
    }

    /**
     * The peer is gone or unreachable: fail the connect, or report {@code cause}. Never a fallback to plain TCP: a
     * netty-ucx server that sheds or times out a handshake closes before its intro too (docs/protocol.md).
     */
    void peerVanished(IOException cause) {
        UcxConnector connector = channel.connector;
        String hint = connector.vanishedHint();
        connector.failing(UcxTransportMetrics.SetupFailure.IO, cause.getMessage());
        UcxLoopSeat registration = channel.registration();
        if (channel.session.peerLost() && channel.link.peerSharesMemoryQueue() && registration != null) {
            registration.sameHostPeerVanished();
        }
        if (channel.attempt.isPending()) {
            ConnectException connectFailure = new ConnectException("connection to " + channel.attempt.target()
                    + " failed: " + cause.getMessage() + hint);
            connectFailure.initCause(cause);
            channel.clientConnect.failConnect(connectFailure);
        } else if (channel.isOpen()) {
            channel.pipeline().fireExceptionCaught(cause);
            channel.unsafe().close(channel.unsafe().voidPromise());
        }
    }
}
