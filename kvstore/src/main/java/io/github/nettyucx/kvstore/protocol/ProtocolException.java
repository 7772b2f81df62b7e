/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.protocol;

/** A well-framed request that cannot be served as sent; answered with {@link #status()}. */
public final class ProtocolException extends Exception {
    private static final long serialVersionUID = 1L;

    private final Status status;

    public ProtocolException(Status status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public Status status() {
        return status;
    }
}
