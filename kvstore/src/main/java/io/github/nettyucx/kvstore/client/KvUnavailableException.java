/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

/** The server that owns the key cannot be reached, or its connection closed with the request in flight. */
public final class KvUnavailableException extends KvException {
    private static final long serialVersionUID = 1L;

    public KvUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
