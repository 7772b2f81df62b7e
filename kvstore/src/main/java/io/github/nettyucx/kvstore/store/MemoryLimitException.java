/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.store;

/** A write refused because it would take the store past its memory limit. */
public final class MemoryLimitException extends Exception {
    private static final long serialVersionUID = 1L;

    public MemoryLimitException(long limit, long used, long needed) {
        super("memory limit of " + limit + " bytes reached (" + used + " used, this write needs " + needed
                + " more); raise --max-memory", null, false, false);
    }
}
