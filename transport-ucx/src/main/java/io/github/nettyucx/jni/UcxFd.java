/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import io.netty.channel.DefaultFileRegion;

import java.io.IOException;

/**
 * The one owner of a channel's socket descriptor. The socket is the channel's from {@link #own} until it is closed
 * here or handed to the native connection with {@link #handOff()} (whose close lingers until the peer is done and
 * then closes it, ucx_close.c). Whatever else uses the socket (the side channel, a plain data path) holds this
 * object, and what knows only the number (the loop's epoll set, the plain socket's options) never closes it. The
 * socket's system calls are this class's methods, as Netty's {@code Socket}'s. Written on the event loop; any
 * thread may read it.
 */
public final class UcxFd {
    /** What {@link #peek()} returns when nothing is there yet. */
    public static final int NOTHING_YET = -1;
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

    // A connected stream socket's bytes (ucx_socket.c; writev, sendFile, peek: ucx_plain.c).

    /** Reads into {@code length} bytes at {@code address}: the bytes read, 0 when none are waiting, -1 at the end. */
    public int read(long address, int length) throws IOException {
        return UcxNative.socketRead(fd, address, length);
    }

    /** Writes {@code length} bytes at {@code address}: the bytes written, 0 when the socket buffer is full. */
    public int write(long address, int length) throws IOException {
        return UcxNative.socketWrite(fd, address, length);
    }

    /** Writes {@code count} I/O vector entries at {@code iovAddress} with one sendmsg, as {@link #write}. */
    public long writev(long iovAddress, int count) throws IOException {
        return UcxNative.socketWritev(fd, iovAddress, count);
    }

    /**
     * Sends {@code count} bytes of the region's file from {@code position} with sendfile: the bytes sent, 0 when the
     * socket buffer is full, {@link UcxNative#SEND_FILE_DECLINED} when the file is out of reach.
     */
    public long sendFile(DefaultFileRegion region, long position, long count) throws IOException {
        return UcxNative.socketSendFile(fd, region, position, count);
    }

    /** Whether {@link #sendFile} can reach a {@link DefaultFileRegion}'s file descriptor through its fields. */
    public static boolean sendFileReachesRegions() {
        return UcxNative.fileRegionFdReachable();
    }

    /**
     * What the socket holds, without taking it: 1 when bytes are waiting, 0 when the peer's end of stream is next,
     * {@link #NOTHING_YET} when nothing is there yet; throws the error that ended the connection.
     */
    public int peek() throws IOException {
        return UcxNative.socketPeek(fd);
    }

    public void shutdownWrite() {
        UcxNative.socketShutdownWrite(fd);
    }

    // A UDP socket's calls (ucx_datagram.c): an IPv6 one is dual-stack; addresses as ip bytes, scope id and port.

    /** Whether the kernel makes IPv6 UDP sockets. */
    public static boolean datagramIpv6Supported() {
        return UcxNative.datagramIpv6Supported();
    }

    /** Owns a new non-blocking UDP socket (the channel had none). */
    public void ownNewDatagram(boolean ipv6) throws IOException {
        own(UcxNative.datagramSocket(ipv6));
    }

    public void datagramBind(boolean ipv6, byte[] ip, int scopeId, int port) throws IOException {
        UcxNative.datagramBind(fd, ipv6, ip, scopeId, port);
    }

    public void datagramConnect(boolean ipv6, byte[] ip, int scopeId, int port) throws IOException {
        UcxNative.datagramConnect(fd, ipv6, ip, scopeId, port);
    }

    public void datagramDisconnect() throws IOException {
        UcxNative.datagramDisconnect(fd);
    }

    /** Sends to the connected peer: the bytes sent, or -1 when the socket buffer is full. */
    public int datagramSend(long address, int length) throws IOException {
        return UcxNative.datagramSend(fd, address, length);
    }

    /** As {@link #datagramSend}, to the given address. */
    public int datagramSendTo(long address, int length, boolean ipv6, byte[] ip, int scopeId, int port)
            throws IOException {
        return UcxNative.datagramSendTo(fd, address, length, ipv6, ip, scopeId, port);
    }

    /**
     * Receives a datagram of at most {@code length} bytes: its length, or -1 when none is waiting; its sender goes
     * into {@code sender} ({@link UcxNative#SENDER_BYTES}, laid out by the SENDER_* offsets).
     */
    public int datagramReceive(long address, int length, byte[] sender) throws IOException {
        return UcxNative.datagramRecvFrom(fd, address, length, sender);
    }

    /** Throws the socket's pending error (SO_ERROR), clearing it; returns when there is none. */
    public void takeError() throws IOException {
        UcxNative.datagramTakeError(fd);
    }

    /** The interface multicast is sent from, by index; 0 lets the routing table decide. */
    public void multicastInterface(boolean ipv6, int index) throws IOException {
        UcxNative.datagramSetMulticastInterface(fd, ipv6, index);
    }

    /** Joins or leaves a group (for one source when {@code source} is not null) on the interface of that index. */
    public void membership(boolean join, byte[] group, byte[] source, int index) throws IOException {
        UcxNative.datagramMembership(fd, join, group, source, index);
    }

    @Override
    public String toString() {
        return String.valueOf(fd);
    }
}
