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

    @Override
    public String toString() {
        return String.valueOf(fd);
    }
}
