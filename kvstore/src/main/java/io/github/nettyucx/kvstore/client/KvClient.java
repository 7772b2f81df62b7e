/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import io.github.nettyucx.kvstore.protocol.FrameDecoderHandler;
import io.github.nettyucx.kvstore.protocol.OpCode;
import io.github.nettyucx.kvstore.protocol.Status;
import io.github.nettyucx.kvstore.protocol.Wire;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.internal.ObjectUtil;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Client of one store made of one or more servers. Keys are spread over the servers by consistent
 * hashing; every call returns at once with a future, and many requests can be in flight on each
 * connection (responses are matched by request id). Safe for any number of threads: one instance is
 * meant to be shared.
 *
 * <p>Futures complete on an event loop thread: keep dependent actions short, or move them off with
 * the {@code ...Async} methods of {@link CompletableFuture}. Failures are {@link KvServerException}
 * (the server refused), {@link KvUnavailableException} (the key's server is down or its connection
 * closed) and {@link KvTimeoutException}.
 */
public final class KvClient implements AutoCloseable {
    private final KvClientConfig config;
    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final List<ServerLink> links = new ArrayList<>();
    private final HashRing<ServerLink> ring;
    private final long timeoutNanos;

    public KvClient(KvClientConfig config) {
        this.config = ObjectUtil.checkNotNull(config, "config");
        if (config.servers().isEmpty()) {
            throw new IllegalArgumentException("no servers configured");
        }
        if (new HashSet<>(config.servers()).size() != config.servers().size()) {
            throw new IllegalArgumentException("a server is listed twice in " + config.servers());
        }
        this.ownsGroup = config.group() == null;
        this.group = ownsGroup ? config.transport().newEventLoopGroup(config.ioThreads()) : config.group();
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.requestTimeoutMillis());
        List<String> names = new ArrayList<>();
        for (InetSocketAddress server : config.servers()) {
            InetSocketAddress resolved = server.isUnresolved()
                    ? new InetSocketAddress(server.getHostString(), server.getPort()) : server;
            Bootstrap b = new Bootstrap()
                    .group(group)
                    .channel(config.transport().socketChannel())
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMillis())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new FrameDecoderHandler(config.maxFrameLength()),
                                    new ClientHandler(resolved, config.maxFrameLength(),
                                            config.requestTimeoutMillis()));
                        }
                    });
            links.add(new ServerLink(resolved, b, config.connectionsPerServer(),
                    TimeUnit.MILLISECONDS.toNanos(config.reconnectDelayMillis())));
            names.add(server.getHostString() + ":" + server.getPort());
        }
        this.ring = new HashRing<>(links, names);
    }

    /** The record, only the given fields (null or empty: all), or null when the key does not exist. */
    public CompletableFuture<Map<String, byte[]>> get(String key, Collection<String> fields) {
        return send(OpCode.GET, key, fields, null, 0, (status, in) -> status == Status.OK ? Wire.readRecord(in) : null);
    }

    /** Inserts or replaces the whole record. */
    public CompletableFuture<Void> put(String key, Map<String, byte[]> record) {
        ObjectUtil.checkNotNull(record, "record");
        return send(OpCode.PUT, key, null, record, 0, (status, in) -> {
            expectOk(OpCode.PUT, status);
            return null;
        });
    }

    /** Merges fields into the record; false when the key does not exist. */
    public CompletableFuture<Boolean> update(String key, Map<String, byte[]> fields) {
        ObjectUtil.checkNotNull(fields, "fields");
        return send(OpCode.UPDATE, key, null, fields, 0, (status, in) -> status == Status.OK);
    }

    /** Deletes the record; false when the key did not exist. */
    public CompletableFuture<Boolean> delete(String key) {
        return send(OpCode.DELETE, key, null, null, 0, (status, in) -> status == Status.OK);
    }

    /**
     * Up to {@code count} records in key order starting at {@code startKey} (inclusive). Keys are
     * spread over all servers, so this asks every server and merges; it fails if any server does.
     * A server returns fewer rows than asked when more would not fit in its maximum frame.
     */
    public CompletableFuture<List<KeyRecord>> scan(String startKey, int count, Collection<String> fields) {
        ObjectUtil.checkNotNull(startKey, "startKey");
        ObjectUtil.checkPositiveOrZero(count, "count");
        List<CompletableFuture<List<KeyRecord>>> parts = new ArrayList<>(links.size());
        for (ServerLink link : links) {
            parts.add(send(link, OpCode.SCAN, startKey, fields, null, count, KvClient::readScan));
        }
        return CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0])).thenApply(ignored -> {
            if (parts.size() == 1) {
                return parts.get(0).join();
            }
            List<KeyRecord> all = new ArrayList<>();
            for (CompletableFuture<List<KeyRecord>> part : parts) {
                all.addAll(part.join());
            }
            all.sort(Comparator.comparing(KeyRecord::key));
            return all.size() > count ? new ArrayList<>(all.subList(0, count)) : all;
        });
    }

    /** Counters of one server (records, used_bytes, max_bytes, connections, requests, errors, ...). */
    public CompletableFuture<Map<String, String>> stats(InetSocketAddress server) {
        for (ServerLink link : links) {
            if (link.address.getPort() == server.getPort()
                    && link.address.getHostString().equals(server.getHostString())) {
                return send(link, OpCode.STATS, null, null, null, 0, (status, in) -> {
                    Map<String, String> out = new LinkedHashMap<>();
                    for (Map.Entry<String, byte[]> e : Wire.readRecord(in).entrySet()) {
                        out.put(e.getKey(), new String(e.getValue(), StandardCharsets.UTF_8));
                    }
                    return out;
                });
            }
        }
        throw new IllegalArgumentException(server + " is not one of this client's servers " + servers());
    }

    /**
     * Opens all connections now instead of on first use, so that the first requests do not pay for
     * connection setup. Completes when every attempt has ended; a server that cannot be reached does
     * not fail the future (its keys fail when used, as always).
     */
    public CompletableFuture<Void> connectAll() {
        List<ChannelFuture> attempts = new ArrayList<>();
        for (ServerLink link : links) {
            link.connectAll(attempts);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (attempts.isEmpty()) {
            done.complete(null);
            return done;
        }
        AtomicInteger left = new AtomicInteger(attempts.size());
        for (ChannelFuture f : attempts) {
            f.addListener(ignored -> {
                if (left.decrementAndGet() == 0) {
                    done.complete(null);
                }
            });
        }
        return done;
    }

    public List<InetSocketAddress> servers() {
        List<InetSocketAddress> out = new ArrayList<>();
        for (ServerLink link : links) {
            out.add(link.address);
        }
        return Collections.unmodifiableList(out);
    }

    /** The server that owns a key. */
    public InetSocketAddress serverFor(String key) {
        return ring.nodeFor(key).address;
    }

    public KvClientConfig config() {
        return config;
    }

    /** Closes every connection (requests in flight fail) and, if the client made it, the event loop group. */
    @Override
    public void close() {
        for (ServerLink link : links) {
            link.close();
        }
        if (ownsGroup) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private <T> CompletableFuture<T> send(OpCode op, String key, Collection<String> fields, Map<String, byte[]> values,
                                          int count, ResponseParser<T> parser) {
        ObjectUtil.checkNotNull(key, "key");
        return send(ring.nodeFor(key), op, key, fields, values, count, parser);
    }

    private <T> CompletableFuture<T> send(ServerLink link, OpCode op, String key, Collection<String> fields,
                                          Map<String, byte[]> values, int count, ResponseParser<T> parser) {
        PendingRequest<T> request = new PendingRequest<>(op, key, fields, values, count, link.address, timeoutNanos,
                parser);
        link.send(request);
        return request.future;
    }

    private static void expectOk(OpCode op, Status status) {
        if (status != Status.OK) {
            throw new KvException(op + " answered " + status);
        }
    }

    private static List<KeyRecord> readScan(Status status, ByteBuf in)
            throws io.github.nettyucx.kvstore.protocol.ProtocolException {
        // Each row takes at least a 2-byte key length and a 4-byte field count.
        int rows = Wire.readCount(in, 6, "row");
        List<KeyRecord> out = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            String key = Wire.readString(in);
            out.add(new KeyRecord(key, Wire.readRecord(in)));
        }
        return out;
    }
}
