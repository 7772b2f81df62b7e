/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.server;

import io.github.nettyucx.kvstore.protocol.Frame;
import io.github.nettyucx.support.NettyTransport;
import io.netty.util.internal.ObjectUtil;

/** Settings of one server; the defaults are those of {@code kvstore server} without flags. */
public final class KvServerConfig {
    private String host = "127.0.0.1";
    private int port = 7379;
    private NettyTransport transport = NettyTransport.UCX;
    private int ioThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
    // Only key and value bytes are counted; Java's per-record and per-field objects roughly double
    // that for YCSB-sized records, so a quarter of the heap leaves room for them.
    private long maxMemoryBytes = Runtime.getRuntime().maxMemory() / 4;
    private int maxFrameLength = Frame.DEFAULT_MAX_FRAME_LENGTH;

    public String host() {
        return host;
    }

    public KvServerConfig host(String host) {
        this.host = ObjectUtil.checkNotNull(host, "host");
        return this;
    }

    public int port() {
        return port;
    }

    /** 0 picks a free port; {@link KvServer#port()} tells which. */
    public KvServerConfig port(int port) {
        this.port = ObjectUtil.checkInRange(port, 0, 65535, "port");
        return this;
    }

    public NettyTransport transport() {
        return transport;
    }

    public KvServerConfig transport(NettyTransport transport) {
        this.transport = ObjectUtil.checkNotNull(transport, "transport");
        return this;
    }

    public int ioThreads() {
        return ioThreads;
    }

    public KvServerConfig ioThreads(int ioThreads) {
        this.ioThreads = ObjectUtil.checkPositive(ioThreads, "ioThreads");
        return this;
    }

    public long maxMemoryBytes() {
        return maxMemoryBytes;
    }

    /**
     * Key, field name and value bytes (UTF-8) the store may hold; writes beyond it get
     * {@code MEMORY_LIMIT}. Object overhead is not counted: keep this well below the heap size.
     */
    public KvServerConfig maxMemoryBytes(long maxMemoryBytes) {
        this.maxMemoryBytes = ObjectUtil.checkPositive(maxMemoryBytes, "maxMemoryBytes");
        return this;
    }

    public int maxFrameLength() {
        return maxFrameLength;
    }

    public KvServerConfig maxFrameLength(int maxFrameLength) {
        this.maxFrameLength = ObjectUtil.checkInRange(maxFrameLength, Frame.HEADER_BYTES, 1 << 30, "maxFrameLength");
        return this;
    }
}
