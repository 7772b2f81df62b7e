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
 * A TCP port where connect attempts to any address of this host hang until the kernel gives up, without sending
 * anything off the machine: a listener on the wildcard address with backlog 1 that never accepts, whose accept
 * queue is filled by plain sockets. Once the queue is full, Linux drops further SYNs (with
 * {@code net.ipv4.tcp_abort_on_overflow=0}, the default), whatever local address they are for. A copy of
 * transport-ucx's {@code LoopbackBlackHole} bound to the wildcard address, so that it also covers the addresses of
 * the host's other devices (which UCX's tcp transport dials). Filler sockets connect until one of them times out,
 * which proves the black hole works on this kernel; if none does, the calling test is skipped.
 */
final class WildcardBlackHole implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> fillers = new ArrayList<>();

    WildcardBlackHole() throws IOException {
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(0), 1);
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), port());
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
            Assumptions.abort("this kernel completes connects to a listener with a full backlog; no black hole");
        }
    }

    int port() {
        return listener.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        for (Socket s : fillers) {
            s.close();
        }
        listener.close();
    }
}
