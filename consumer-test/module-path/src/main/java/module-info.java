/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/** A user's application as a named module: it requires the transport's module and Netty's by name. */
module io.github.nettyucx.consumer.modulepath {
    requires io.github.nettyucx.transport;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
}
