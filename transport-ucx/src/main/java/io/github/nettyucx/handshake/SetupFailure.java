/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

/** Why a connection closed before it became active: what {@code UcxTransportMetrics} counts failed setups by. */
public enum SetupFailure {
    /** The peers did not trust each other with UCX and the TCP data path was off on one side. */
    UNTRUSTED,
    /**
     * The peers trusted each other, but their UCX contexts share no transport that reaches across, and the TCP
     * data path was off on one side.
     */
    NO_TRANSPORT,
    /** The peer sent what the netty-ucx handshake does not allow: it speaks another protocol, or violates ours. */
    PROTOCOL,
    /** The connect timeout, an accepted peer's time for its hello, or a UCX endpoint that never came up. */
    TIMEOUT,
    /** A server shed the pending handshake to admit a newer connection: it had as many pending as it allows. */
    REFUSED,
    /** The TCP connect failed, or the peer or the network failed during the handshake. */
    IO,
    /** Closed by this side (a cancelled connect, the channel closed, the loop shut down) before it was up. */
    CLOSED
}
