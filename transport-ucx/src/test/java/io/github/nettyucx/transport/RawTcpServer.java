/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A plain TCP server of blocking sockets on loopback, one thread per connection, that serves each accepted socket
 * as {@code serve} says: a server that does not speak netty-ucx, for the fallback and downgrade tests.
 */
final class RawTcpServer implements AutoCloseable {
    final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    /** Connections accepted so far. */
    final AtomicInteger connections = new AtomicInteger();
    /** The first 4 bytes {@link #readFirstBytesThenClose} read. */
    final CompletableFuture<String> firstBytes = new CompletableFuture<>();
    private final Thread thread;

    RawTcpServer(Consumer<Socket> serve) throws IOException {
        thread = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket accepted = socket.accept();
                    connections.incrementAndGet();
                    Thread handler = new Thread(() -> serve.accept(accepted), "raw-server-connection");
                    handler.setDaemon(true);
                    handler.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "raw-server");
        thread.setDaemon(true);
        thread.start();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    /** Reads 4 bytes, then closes without a word: what a server that dislikes the bytes may do. */
    void readFirstBytesThenClose(Socket s) {
        try (Socket accepted = s) {
            firstBytes.complete(new String(accepted.getInputStream().readNBytes(4), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            firstBytes.completeExceptionally(e);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        socket.close();
        thread.join(5000);
    }
}
