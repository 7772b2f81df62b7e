/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import io.github.nettyucx.kvstore.protocol.Frame;
import io.github.nettyucx.support.NettyTransport;
import io.netty.channel.EventLoopGroup;
import io.netty.util.internal.ObjectUtil;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** Settings of a {@link KvClient}. */
public final class KvClientConfig {
    private final List<InetSocketAddress> servers = new ArrayList<>();
    private NettyTransport transport = NettyTransport.UCX;
    private EventLoopGroup group;
    private int ioThreads = defaultIoThreads(Runtime.getRuntime().availableProcessors());
    private int connectionsPerServer = 2;
    private long requestTimeoutMillis = 10_000;
    private int connectTimeoutMillis = 3_000;
    private long reconnectDelayMillis = 1_000;
    private int maxFrameLength = Frame.DEFAULT_MAX_FRAME_LENGTH;

    /**
     * Half the processors, 1 to 4: the client's callers and the servers on the same host need cores too, and an I/O
     * thread of a transport that spins (UCX) holds one while it waits (docs/ycsb/demo.md).
     */
    static int defaultIoThreads(int processors) {
        return Math.max(1, Math.min(4, processors / 2));
    }

    /** Parses {@code host:port,host:port,...}. */
    public static List<InetSocketAddress> parseHosts(String hosts) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (String part : hosts.split(",")) {
            String hp = part.trim();
            if (hp.isEmpty()) {
                continue;
            }
            int colon = hp.lastIndexOf(':');
            if (colon <= 0 || colon == hp.length() - 1) {
                throw new IllegalArgumentException("'" + hp + "' is not host:port (in '" + hosts + "')");
            }
            int port;
            try {
                port = Integer.parseInt(hp.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad port in '" + hp + "'");
            }
            out.add(InetSocketAddress.createUnresolved(hp.substring(0, colon), port));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no servers in '" + hosts + "' (expected host:port[,host:port...])");
        }
        return out;
    }

    public List<InetSocketAddress> servers() {
        return servers;
    }

    public KvClientConfig server(InetSocketAddress server) {
        servers.add(ObjectUtil.checkNotNull(server, "server"));
        return this;
    }

    public KvClientConfig servers(List<InetSocketAddress> list) {
        for (InetSocketAddress a : list) {
            server(a);
        }
        return this;
    }

    public NettyTransport transport() {
        return transport;
    }

    public KvClientConfig transport(NettyTransport transport) {
        this.transport = ObjectUtil.checkNotNull(transport, "transport");
        return this;
    }

    /** A group to share (its transport must match); null: the client makes and owns one. */
    public EventLoopGroup group() {
        return group;
    }

    public KvClientConfig group(EventLoopGroup group) {
        this.group = group;
        return this;
    }

    public int ioThreads() {
        return ioThreads;
    }

    public KvClientConfig ioThreads(int ioThreads) {
        this.ioThreads = ObjectUtil.checkPositive(ioThreads, "ioThreads");
        return this;
    }

    public int connectionsPerServer() {
        return connectionsPerServer;
    }

    /** Connections to each server; caller threads are spread over them, each request pipelined. */
    public KvClientConfig connectionsPerServer(int n) {
        this.connectionsPerServer = ObjectUtil.checkPositive(n, "connectionsPerServer");
        return this;
    }

    public long requestTimeoutMillis() {
        return requestTimeoutMillis;
    }

    public KvClientConfig requestTimeoutMillis(long millis) {
        this.requestTimeoutMillis = ObjectUtil.checkPositive(millis, "requestTimeoutMillis");
        return this;
    }

    public int connectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    public KvClientConfig connectTimeoutMillis(int millis) {
        this.connectTimeoutMillis = ObjectUtil.checkPositive(millis, "connectTimeoutMillis");
        return this;
    }

    public long reconnectDelayMillis() {
        return reconnectDelayMillis;
    }

    /** After a failed connect, requests for that server fail at once for this long, then one retries. */
    public KvClientConfig reconnectDelayMillis(long millis) {
        this.reconnectDelayMillis = ObjectUtil.checkPositiveOrZero(millis, "reconnectDelayMillis");
        return this;
    }

    public int maxFrameLength() {
        return maxFrameLength;
    }

    public KvClientConfig maxFrameLength(int maxFrameLength) {
        this.maxFrameLength = ObjectUtil.checkInRange(maxFrameLength, Frame.HEADER_BYTES, 1 << 30, "maxFrameLength");
        return this;
    }
}
