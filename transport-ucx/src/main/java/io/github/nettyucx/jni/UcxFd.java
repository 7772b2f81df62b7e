/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import java.io.IOException;

/**
 * The one owner of a channel's socket descriptor. The socket is the channel's from {@link #own} until it is closed
 * here or handed to the native connection with {@link #handOff()} (whose close lingers until the peer is done and
 * then closes it, ucx_close.c). Whatever else knows the number (the loop's epoll set, the side channel, a plain
 * data path, the plain socket's options) only reads and writes through it and never closes it. Written on the event
 * loop; any thread may read it.
 */
public final class UcxFd {
    private volatile int fd;

    public UcxFd(int fd) {
        this.fd = fd;
    }

    /** The socket's number, or -1 when the channel has none (not yet, or no more). */
    public int get() {
        return fd;
    }

    public boolean isOpen() {
        return fd >= 0;
    }

    /** Takes {@code socket} (a new one: the channel had none). */
    public void own(int socket) {
        if (fd >= 0) {
            throw new IllegalStateException("the channel already has socket " + fd);
        }
        fd = socket;
    }

    /**
     * Moves the socket to a new owner, for a close that must finish with the channel already socketless (so that
     * nothing re-arms the loop's interest in it meanwhile).
     */
    public UcxFd moveOut() {
        return new UcxFd(handOff());
    }

    /** Gives the socket up to the native connection's close, which frees it; -1 when there is none. */
    public int handOff() {
        int socket = fd;
        fd = -1;
        return socket;
    }

    /** Closes the socket; nothing when there is none. Take it out of the loop's epoll set first. */
    public void close() throws IOException {
        int socket = handOff();
        if (socket >= 0) {
            UcxNative.socketClose(socket);
        }
    }

    /** {@link #close()} where nothing more can be done about a failure (the loop is gone, or a retry follows). */
    public void closeQuietly() {
        try {
            close();
        } catch (IOException ignored) {
            // The number is given back to the kernel either way: close(2) frees it even when it reports an error.
        }
    }

    // The socket's system calls, on this descriptor (ucx_socket.c; peerUid: ucx_peer.c; resetOnClose: ucx_plain.c).
    // With no socket (-1) they fail as the kernel fails them, with EBADF.

    /** Owns a new non-blocking TCP socket (the channel had none). */
    public void ownNewStream(boolean ipv6) throws IOException {
        own(UcxNative.socketStream(ipv6));
    }

    /** Binds the socket and listens on it. */
    public void bindListen(byte[] address, int port, int backlog) throws IOException {
        UcxNative.socketBindListen(fd, address, port, backlog);
    }

    public void bind(byte[] address, int port) throws IOException {
        UcxNative.socketBind(fd, address, port);
    }

    /** The next connection waiting on this listening socket, or null when none is. */
    public UcxFd accept() throws IOException {
        int child = UcxNative.socketAccept(fd);
        return child < 0 ? null : new UcxFd(child);
    }

    /** Starts a connect; true when it completed at once. */
    public boolean connect(byte[] address, int port) throws IOException {
        return UcxNative.socketConnect(fd, address, port);
    }

    /** Whether the connect started by {@link #connect} completed; throws why it failed. */
    public boolean finishConnect() throws IOException {
        return UcxNative.socketFinishConnect(fd);
    }

    /** Sets SO_LINGER to 0: the socket's close resets the connection. */
    public void resetOnClose() throws IOException {
        UcxNative.socketResetOnClose(fd);
    }

    /** The socket's address, encoded as {@link UcxNative#socketLocalAddress} returns it; null when it has none. */
    public byte[] localAddress() {
        return UcxNative.socketLocalAddress(fd);
    }

    public byte[] remoteAddress() {
        return UcxNative.socketRemoteAddress(fd);
    }

    /** TCP keepalive with these timers: a vanished peer host ends the connection. */
    public void keepAlive(int idleSeconds, int intervalSeconds, int probes) {
        UcxNative.socketKeepAlive(fd, idleSeconds, intervalSeconds, probes);
    }

    /** The uid owning the other end of the connection, or -1 when it is not in this host's table. */
    public int peerUid() {
        return UcxNative.socketPeerUid(fd);
    }

    @Override
    public String toString() {
        return String.valueOf(fd);
    }
}
