/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

/** Why a request failed; the subclasses say whether the server, the network or the clock did it. */
public class KvException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KvException(String message) {
        super(message);
    }

    public KvException(String message, Throwable cause) {
        super(message, cause);
    }
}
