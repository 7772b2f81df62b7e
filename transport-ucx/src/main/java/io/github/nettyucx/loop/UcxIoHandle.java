/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.netty.channel.IoHandle;

import java.io.IOException;

/**
 * A handle served by {@link UcxIoHandler}: a side-channel socket, possibly with a UCX connection.
 */
public interface UcxIoHandle extends IoHandle {
    /** Closes the channel behind the handle; never throws (nor is interrupted). */
    @Override
    void close();

    /** The side-channel socket to watch, or -1 while there is none. */
    int fd();

    /**
     * The event loop's UCP worker is about to be replaced (see {@link UcxSharedMemoryProbe}): a handle with a
     * connection on it fails with {@code cause} and closes. Returns whether it did.
     */
    boolean workerLost(IOException cause);

    /**
     * The event loop is gone: the worker frees the native connection, so the handle only closes its socket
     * and must not touch native state again.
     */
    void abandon();
}
