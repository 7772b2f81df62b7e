/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Reactor Netty on the UCX transport: {@link io.github.nettyucx.reactor.UcxLoopResources}, a
 * {@code LoopResources} to give {@code HttpServer}, {@code HttpClient}, {@code TcpServer} and {@code TcpClient} with
 * {@code runOn(...)}, or to all of them at once with {@code HttpResources.set(...)}.
 */
package io.github.nettyucx.reactor;
