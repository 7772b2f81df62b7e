/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

/** No response within the request timeout. */
public final class KvTimeoutException extends KvException {
    private static final long serialVersionUID = 1L;

    public KvTimeoutException(String message) {
        super(message);
    }
}
