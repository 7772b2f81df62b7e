/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server's count of accepted connections still in their handshake, in all and per remote address: what strangers
 * can make the server hold is bounded ({@link UcxChannelOption#MAX_PENDING_HANDSHAKES}). Children on any loop take
 * and give back slots, so the counts are atomic. Refusals are logged as {@link PeerWarnings}.
 */
final class UcxHandshakeLimits {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxHandshakeLimits.class);
    static final int DEFAULT_MAX_PENDING = 4096;
    static final int DEFAULT_MAX_PENDING_PER_ADDRESS = 1024;

    private final PeerWarnings warnings = new PeerWarnings(logger);
    private final AtomicInteger pending = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> pendingByAddress = new ConcurrentHashMap<>();
    private volatile int maxPending = DEFAULT_MAX_PENDING;
    private volatile int maxPendingPerAddress = DEFAULT_MAX_PENDING_PER_ADDRESS;

    int maxPending() {
        return maxPending;
    }

    void maxPending(int max) {
        maxPending = max;
    }

    int maxPendingPerAddress() {
        return maxPendingPerAddress;
    }

    void maxPendingPerAddress(int max) {
        maxPendingPerAddress = max;
    }

    /** Handshakes in progress now. */
    int pending() {
        return pending.get();
    }

    /**
     * Takes a slot for a handshake with {@code peer}: returns what gives it back (idempotent), or null when a limit
     * is reached and the connection must be refused.
     */
    Runnable tryAcquire(InetAddress peer) {
        if (pending.incrementAndGet() > maxPending) {
            pending.decrementAndGet();
            refused(peer, "handshakes pending in all", maxPending, "MAX_PENDING_HANDSHAKES");
            return null;
        }
        boolean[] admitted = new boolean[1];
        // Counted under the map's lock for that address, so that a count reaching 0 is removed before anyone
        // else counts on it.
        pendingByAddress.compute(peer, (address, count) -> {
            int now = count == null ? 0 : count;
            admitted[0] = now < maxPendingPerAddress;
            return admitted[0] ? Integer.valueOf(now + 1) : count;
        });
        if (!admitted[0]) {
            pending.decrementAndGet();
            refused(peer, "handshakes pending from that address", maxPendingPerAddress,
                    "MAX_PENDING_HANDSHAKES_PER_ADDRESS");
            return null;
        }
        AtomicBoolean once = new AtomicBoolean();
        return () -> {
            if (once.compareAndSet(false, true)) {
                release(peer);
            }
        };
    }

    private void release(InetAddress peer) {
        pendingByAddress.computeIfPresent(peer, (address, count) -> count <= 1 ? null : Integer.valueOf(count - 1));
        pending.decrementAndGet();
    }

    private void refused(InetAddress peer, String what, int limit, String option) {
        warnings.warn("Refused a connection from {}: {} {} reached (UcxChannelOption.{})",
                peer.getHostAddress(), limit, what, option);
    }
}
