/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

/**
 * How a connection's bytes travel, as chosen when its handshake ended: what {@code UcxTransportMetrics} counts
 * connections by.
 */
public enum DataPath {
    /** UCX tagged messages: shared memory on one host, InfiniBand/RoCE (or UCX's tcp) between hosts. */
    UCX("UCX"),
    /** The connection's socket as plain TCP after the hellos: a peer UCX reaches only over TCP, or untrusted. */
    TCP_DATA_PATH("TCP data path"),
    /** Plain TCP: the peer does not speak netty-ucx. */
    PLAIN_TCP("plain TCP");

    private final String label;

    DataPath(String label) {
        this.label = label;
    }

    /** The name this data path has in the documentation and in a channel's {@code ucxLanes()}. */
    public String label() {
        return label;
    }
}
