/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The connections to one server. Each caller thread sticks to one of them (by thread id), so one
 * thread's requests stay in order and threads spread over the connections' event loops.
 * Connections open on first use and reopen after a close. When a connect fails, requests for this
 * server fail immediately during the reconnect delay instead of each waiting for its own attempt:
 * a dead server costs its keys only, and only briefly.
 */
final class ServerLink {
    final InetSocketAddress address;
    private final Connection[] connections;

    ServerLink(InetSocketAddress address, Bootstrap bootstrap, int connections, long reconnectDelayNanos) {
        this.address = address;
        this.connections = new Connection[connections];
        for (int i = 0; i < connections; i++) {
            this.connections[i] = new Connection(bootstrap, reconnectDelayNanos);
        }
    }

    void send(PendingRequest<?> request) {
        connections[(int) (Thread.currentThread().getId() % connections.length)].send(request);
    }

    /** Opens every connection that is not open yet; the futures complete when each attempt ends. */
    void connectAll(List<ChannelFuture> attempts) {
        for (Connection c : connections) {
            ChannelFuture f = c.connect();
            if (f != null) {
                attempts.add(f);
            }
        }
    }

    void close() {
        for (Connection c : connections) {
            c.close();
        }
    }

    private final class Connection {
        private final Bootstrap bootstrap;
        private final long reconnectDelayNanos;
        private volatile Channel channel;
        // Guarded by this.
        private ChannelFuture connecting;
        private Throwable lastFailure;
        private long lastFailureNanos;
        private boolean closed;

        Connection(Bootstrap bootstrap, long reconnectDelayNanos) {
            this.bootstrap = bootstrap;
            this.reconnectDelayNanos = reconnectDelayNanos;
        }

        void send(PendingRequest<?> request) {
            Channel ch = channel;
            if (ch != null && ch.isActive()) {
                ch.writeAndFlush(request).addListener(request);
                return;
            }
            ChannelFuture attempt;
            synchronized (this) {
                if (closed) {
                    request.fail(new KvException("the client is closed"));
                    return;
                }
                ch = channel;
                if (ch == null || !ch.isActive()) {
                    if (connecting == null) {
                        long sinceFailure = System.nanoTime() - lastFailureNanos;
                        if (lastFailure != null && sinceFailure < reconnectDelayNanos) {
                            request.fail(new KvUnavailableException("server " + address + " is unreachable ("
                                    + lastFailure.getMessage() + ", " + TimeUnit.NANOSECONDS.toMillis(sinceFailure)
                                    + " ms ago); its keys fail until it is back", lastFailure));
                            return;
                        }
                        connecting = bootstrap.connect(address);
                        connecting.addListener((ChannelFutureListener) this::connected);
                    }
                    attempt = connecting;
                    ch = null;
                } else {
                    attempt = null;
                }
            }
            if (ch != null) {
                ch.writeAndFlush(request).addListener(request);
                return;
            }
            attempt.addListener((ChannelFuture f) -> {
                if (f.isSuccess()) {
                    f.channel().writeAndFlush(request).addListener(request);
                } else {
                    request.fail(new KvUnavailableException("cannot connect to " + address + ": " + f.cause(),
                            f.cause()));
                }
            });
        }

        /** Starts a connect unless connected or connecting; returns the attempt, or null if connected. */
        ChannelFuture connect() {
            synchronized (this) {
                Channel ch = channel;
                if (closed || (ch != null && ch.isActive())) {
                    return null;
                }
                if (connecting == null) {
                    connecting = bootstrap.connect(address);
                    connecting.addListener((ChannelFutureListener) this::connected);
                }
                return connecting;
            }
        }

        private void connected(ChannelFuture f) {
            boolean closeNow;
            synchronized (this) {
                connecting = null;
                if (f.isSuccess()) {
                    channel = f.channel();
                    lastFailure = null;
                } else {
                    lastFailure = f.cause();
                    lastFailureNanos = System.nanoTime();
                }
                closeNow = closed && f.isSuccess();
            }
            if (closeNow) {
                f.channel().close();
            }
        }

        void close() {
            Channel ch;
            ChannelFuture attempt;
            synchronized (this) {
                closed = true;
                ch = channel;
                attempt = connecting;
            }
            if (ch != null) {
                ch.close().syncUninterruptibly();
            }
            if (attempt != null) {
                attempt.awaitUninterruptibly();
                if (attempt.isSuccess()) {
                    attempt.channel().close().syncUninterruptibly();
                }
            }
        }
    }
}
