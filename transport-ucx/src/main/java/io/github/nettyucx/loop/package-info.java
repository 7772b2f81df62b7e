/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * The event loop: {@link io.github.nettyucx.loop.UcxIoHandler} (Netty's {@code IoHandler}) with its configuration
 * ({@link io.github.nettyucx.loop.UcxIoHandlerConfig}, {@link io.github.nettyucx.loop.WaitStrategy}), its one idle
 * policy ({@link io.github.nettyucx.loop.UcxIdlePolicy}, the one place that decides how it waits), the UCP worker
 * it drives ({@link io.github.nettyucx.loop.UcxWorker}) and what the channels register with it
 * ({@link io.github.nettyucx.loop.UcxIoHandle}, {@link io.github.nettyucx.loop.UcxIoOps},
 * {@link io.github.nettyucx.loop.UcxIoEvent}, {@link io.github.nettyucx.loop.UcxLoopSeat}). It depends on the native
 * layer and the allocator only; the channels ({@code io.github.nettyucx.transport}) are built on it.
 * Applications use {@code UcxIoHandler.newFactory}, {@code UcxIoHandlerConfig} and {@code WaitStrategy}; the other
 * public classes are public for the transport's other packages, not for applications, and may change in any
 * release.
 */
package io.github.nettyucx.loop;
