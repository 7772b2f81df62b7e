/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * <strong>Internal:</strong> the data paths, what carries a connection's bytes once its handshake chose how
 * ({@link io.github.nettyucx.datapath.UcxLink}): UCX tagged messages
 * ({@link io.github.nettyucx.datapath.UcxTagDataPath} over a {@link io.github.nettyucx.datapath.UcxConnection}, with
 * its send slots and gatherer), the socket as plain
 * TCP ({@link io.github.nettyucx.datapath.UcxPlainDataPath}), and the link of a connection still in its handshake
 * ({@link io.github.nettyucx.datapath.UcxHandshakeLink}); each owns the input it reads into
 * ({@link io.github.nettyucx.datapath.UcxInput}). Built on the handshake, the loop and the native layer; the stream
 * channel ({@code io.github.nettyucx.transport}) is built on it. Public only because they live in other packages:
 * not for applications, and it may change in any release.
 */
package io.github.nettyucx.datapath;
