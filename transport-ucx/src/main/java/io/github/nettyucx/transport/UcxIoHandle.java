/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.IoHandle;

/**
 * A handle served by {@link UcxIoHandler}: a side-channel socket, possibly with a UCX connection.
 */
public interface UcxIoHandle extends IoHandle {
    /** The side-channel socket to watch, or -1 while there is none. */
    int fd();
}
