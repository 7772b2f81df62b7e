/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.datapath.UcxConnection;
import io.github.nettyucx.handshake.UcxSession;
import io.github.nettyucx.loop.UcxLoopSeat;
import io.github.nettyucx.jni.UcxFd;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;

/**
 * What the close of a {@link UcxSocketChannel} does to its connection: takes a peer's hello that arrived just
 * before, tells the peer (with a close record) how many messages precede our end and whether it is a reset, and
 * closes the native connection (which lingers until the peer is done, see {@link UcxConnection}) or the socket.
 * On the channel's event loop.
 */
final class UcxSocketClose {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxSocketClose.class);
    private final UcxSocketChannel channel;

    UcxSocketClose(UcxSocketChannel channel) {
        this.channel = channel;
    }

    /** Closes the connection and the socket; the channel is already marked closed. */
    void close() throws IOException {
        takePeerHelloBeforeClose();
        UcxFd socket = channel.fd.moveOut();
        // The close record below still goes out on the socket: the side channel writes it.
        channel.side.attach(socket);
        UcxLoopSeat registration = channel.registration();
        if (registration != null) {
            registration.removeFromEpoll();
            registration.plainSocketGone();
        }
        UcxSession session = channel.session;
        boolean force = session.closeForcibly();
        boolean announce = session.closed();
        UcxConnection connection = channel.link.connection();
        if (connection != null) {
            if (announce && socket.isOpen()) {
                sendCloseRecord();
            }
            connection.close(socket.handOff(), force);
            if (registration != null) {
                registration.unbindConnection();
            }
        } else if (socket.isOpen()) {
            if (channel.config().getSoLinger() == 0) {
                // Plain TCP, or a handshake cut short: the socket's own close resets, as any TCP socket's.
                resetOnClose(socket);
            }
            socket.close();
        }
        channel.side.release();
    }

    /**
     * A close after our hello went out but before the peer's was processed: the peer may already count the
     * connection as made (an accepted channel closed as soon as the client's connect succeeds), and must see
     * an orderly end, not a reset. Its hello has usually arrived by then: taking it sets up the data path
     * that carries the close record. Otherwise the close stays without a record, which the peer reports as
     * a reset.
     */
    private void takePeerHelloBeforeClose() {
        UcxSession session = channel.session;
        boolean awaitingPeer = session.state() == UcxSession.State.AWAITING_HELLO
                || session.state() == UcxSession.State.AWAITING_ADDRESS;
        if (channel.link.connection() == null || !channel.fd.isOpen() || !awaitingPeer) {
            return;
        }
        try {
            channel.link.records().receiveRecords();
            session.input(channel.side.inbound(), channel.messagesReceived());
        } catch (IOException e) {
            logger.debug("{}: no usable hello from the peer before the close", channel, e);
        } finally {
            channel.side.consumed();
        }
    }

    private void resetOnClose(UcxFd socket) {
        try {
            socket.resetOnClose();
        } catch (IOException e) {
            logger.debug("{}: could not set SO_LINGER 0 before the close", channel, e);
        }
    }

    /** Tells the peer how many messages precede our end, and whether it is a reset (SO_LINGER 0); best effort. */
    private void sendCloseRecord() {
        try {
            channel.link.records().sendClose(channel.messagesSent(), channel.config().getSoLinger() == 0);
        } catch (IOException e) {
            logger.debug("Could not send the close record to {}", channel.remote, e);
        }
    }
}
