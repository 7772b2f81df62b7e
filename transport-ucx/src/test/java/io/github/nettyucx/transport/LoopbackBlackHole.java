/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP address where connect attempts hang until they time out, without sending anything off the
 * machine: a listener with backlog 1 that never accepts, whose accept queue is filled by plain sockets. Once
 * the queue is full, Linux drops further SYNs (with {@code net.ipv4.tcp_abort_on_overflow=0}, the default),
 * so a connect sees no answer at all. Filler sockets connect until one of them times out, which proves the
 * black hole works on this kernel; if none does, the calling test is skipped. {@link #onEveryAddress()} binds the
 * wildcard address instead, so that the port is a black hole on every address of the host (the addresses of its
 * other devices too, which UCX's tcp transport dials).
 */
public final class LoopbackBlackHole implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> fillers = new ArrayList<>();

    public LoopbackBlackHole() throws IOException {
        this(InetAddress.getLoopbackAddress());
    }

    private LoopbackBlackHole(InetAddress bindTo) throws IOException {
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(bindTo, 0), 1);
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        boolean full = false;
        for (int i = 0; i < 32 && !full; i++) {
            Socket s = new Socket();
            try {
                s.connect(loopback, 250);
                fillers.add(s);
            } catch (SocketTimeoutException e) {
                s.close();
                full = true;
            }
        }
        if (!full) {
            close();
            Assumptions.abort("this kernel completes connects to a listener with a full backlog;"
                    + " no loopback black hole for connect timeouts");
        }
    }

    /** A black hole on one port of every address of this host (a listener on the wildcard address). */
    public static LoopbackBlackHole onEveryAddress() throws IOException {
        return new LoopbackBlackHole(null);
    }

    public int port() {
        return listener.getLocalPort();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    @Override
    public void close() throws IOException {
        for (Socket s : fillers) {
            s.close();
        }
        listener.close();
    }
}
