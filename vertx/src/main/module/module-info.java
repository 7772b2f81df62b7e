/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Vert.x on the UCX transport: {@code io.github.nettyucx.vertx.UcxTransport}, the {@code Transport} a
 * {@code VertxBuilder} takes.
 */
module io.github.nettyucx.vertx {
    requires transitive io.github.nettyucx.transport;
    requires transitive io.vertx.core;

    exports io.github.nettyucx.vertx;
}
