/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import io.github.nettyucx.kvstore.protocol.Status;

/** The server answered with an error status (bad request, memory limit, ...). */
public final class KvServerException extends KvException {
    private static final long serialVersionUID = 1L;

    private final Status status;

    public KvServerException(Status status, String message) {
        super(status + ": " + message);
        this.status = status;
    }

    public Status status() {
        return status;
    }
}
