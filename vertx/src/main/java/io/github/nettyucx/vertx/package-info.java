/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Vert.x 5.1 and later on the UCX transport: {@link io.github.nettyucx.vertx.UcxTransport#UCX}, given to
 * {@code Vertx.builder().withTransport(...)}, runs a Vert.x instance's event loops, TCP clients and servers on
 * netty-ucx.
 */
package io.github.nettyucx.vertx;
