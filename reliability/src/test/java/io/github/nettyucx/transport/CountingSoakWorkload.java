/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link SoakWorkload} that counts its own operations and errors; errors reported after {@link #stopping()}
 * (the channels going away under the load) are not counted.
 */
abstract class CountingSoakWorkload implements SoakWorkload {
    private final AtomicLong operations = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private volatile boolean stopping;

    @Override
    public long operations() {
        return operations.get();
    }

    @Override
    public long errors() {
        return errors.get();
    }

    @Override
    public String firstError() {
        return firstError.get();
    }

    void operationDone() {
        operations.incrementAndGet();
    }

    void error(String what) {
        if (!stopping) {
            errors.incrementAndGet();
            firstError.compareAndSet(null, what);
        }
    }

    /** From now on errors are the load being taken down; call first in {@link #close()}. */
    void stop() {
        stopping = true;
    }

    boolean stopping() {
        return stopping;
    }
}
