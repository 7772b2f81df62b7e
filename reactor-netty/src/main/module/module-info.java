/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Reactor Netty on the UCX transport: {@code LoopResources} whose event loops and channel types are UCX's.
 */
module io.github.nettyucx.reactor {
    requires transitive io.github.nettyucx.transport;
    requires transitive reactor.core;
    requires transitive reactor.netty.core;

    exports io.github.nettyucx.reactor;
}
