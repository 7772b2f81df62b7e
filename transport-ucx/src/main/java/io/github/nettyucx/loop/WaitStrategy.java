/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

/**
 * How an idle {@link UcxIoHandler} waits for work.
 */
public enum WaitStrategy {
    /** Never sleeps: lowest latency, one core per event loop at 100%. */
    BUSY_POLL,
    /** Arms the UCX worker and sleeps in epoll at once: no CPU when idle, a wake-up on every message. */
    SLEEP,
    /** Polls for a fixed, configured time, then arms and sleeps: low latency under load, ~0% CPU when idle. */
    SPIN_THEN_SLEEP,
    /**
     * Spins through a loop's start-up, then for a time each loop learns, up to the configured one, and sleeps at
     * once while other threads take the host's CPUs (see {@code UcxIdlePolicy}). The default.
     */
    ADAPTIVE
}
