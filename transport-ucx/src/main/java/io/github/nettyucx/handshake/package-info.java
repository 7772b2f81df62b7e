/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * The handshake that sets a connection up on its TCP socket before any byte reaches UCX (docs/protocol.md): the
 * session's state machine ({@link io.github.nettyucx.handshake.UcxSession}), the wire format
 * ({@link io.github.nettyucx.handshake.UcxHandshake}), the connector that drives one connection's setup
 * ({@link io.github.nettyucx.handshake.UcxConnector}), trust ({@link io.github.nettyucx.handshake.UcxTrust},
 * {@link io.github.nettyucx.handshake.UcxKeys}, {@link io.github.nettyucx.handshake.UcxTrustExchange}), the choice
 * of data path ({@link io.github.nettyucx.handshake.UcxDataPathPolicy}) and the server's limits on pending
 * handshakes. It knows no channel: it depends on the loop ({@code io.github.nettyucx.loop}, for the worker's owner
 * key and availability) and the native layer, and the data paths and channels are built on it. Applications use
 * {@code UcxTrust}, {@code UcxKeys}, {@code DataPath}, {@code SetupFailure} and the flight recorder's
 * {@code UcxConnectionSetupEvent}; the other public classes are public for the transport's other packages, not
 * for applications, and may change in any release.
 */
package io.github.nettyucx.handshake;
