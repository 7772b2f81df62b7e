/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;

/**
 * A server's accepted connections still in their handshake, in all and per source (an IPv4 address, or an IPv6 /64,
 * which one host or one customer of a provider usually has whole): what strangers can make the server hold is
 * bounded ({@code UcxChannelOption.MAX_PENDING_HANDSHAKES}). Every accepted socket is admitted: when a limit is
 * reached, the oldest pending handshake of the source holding the most slots is shed (closed) to make room, so that
 * a flood from a few sources ends up shedding its own connections and never locks out the others, plain TCP clients
 * included. Shedding is logged as {@link PeerWarnings} and counted ({@code UcxTransportMetrics.handshakesShed()}).
 * <p>
 * Admitted on the server's loop, given back from the children's: one lock guards it all; what it keeps per pending
 * handshake is one small object.
 */
public final class UcxHandshakeLimits {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxHandshakeLimits.class);
    static final int DEFAULT_MAX_PENDING = 4096;
    static final int DEFAULT_MAX_PENDING_PER_ADDRESS = 1024;
    /** Pending handshakes the process's servers shed to admit newer ones. */
    private static final LongAdder SHED = new LongAdder();
    /** The most slots first, then the source whose oldest handshake is oldest: the first to shed from. */
    private static final Comparator<Source> SHED_FIRST = Comparator.comparingInt((Source s) -> -s.slots.size())
            .thenComparingLong(Source::oldest).thenComparing(s -> s.key);

    private final PeerWarnings warnings = new PeerWarnings(logger);
    private final Map<String, Source> sources = new HashMap<>();
    private final TreeSet<Source> byLoad = new TreeSet<>(SHED_FIRST);
    private int pending;
    private long admitted;
    private volatile int maxPending = DEFAULT_MAX_PENDING;
    private volatile int maxPendingPerAddress = DEFAULT_MAX_PENDING_PER_ADDRESS;

    public int maxPending() {
        return maxPending;
    }

    public void maxPending(int max) {
        maxPending = max;
    }

    public int maxPendingPerAddress() {
        return maxPendingPerAddress;
    }

    public void maxPendingPerAddress(int max) {
        maxPendingPerAddress = max;
    }

    /** Handshakes in progress now. */
    public synchronized int pending() {
        return pending;
    }

    /** Handshakes in progress now from {@code peer}'s source (its address, or its IPv6 /64). */
    synchronized int pendingFrom(InetAddress peer) {
        Source source = sources.get(sourceOf(peer));
        return source == null ? 0 : source.slots.size();
    }

    /**
     * The source a peer's handshakes count against: its IPv4 address, or its IPv6 /64 (a host there has a whole
     * /64 to pick addresses from), or "unknown" when the socket could not tell.
     */
    static String sourceOf(InetAddress peer) {
        if (peer == null) {
            return "unknown";
        }
        if (peer instanceof Inet6Address) {
            byte[] prefix = Arrays.copyOf(peer.getAddress(), 16);
            Arrays.fill(prefix, 8, 16, (byte) 0);
            try {
                return InetAddress.getByAddress(prefix).getHostAddress() + "/64";
            } catch (UnknownHostException e) {
                throw new AssertionError(e); // 16 bytes are always an address
            }
        }
        return peer.getHostAddress();
    }

    /**
     * Takes a slot for a handshake with {@code peer} (null: unknown): always admitted. Where a limit is reached,
     * the oldest pending handshake of the source holding the most slots (or, at the per-source limit, of the peer's
     * own source) is shed first: its slot is given back at once and its {@link Slot#onShed} action runs.
     */
    public Slot admit(InetAddress peer) {
        String key = sourceOf(peer);
        List<Slot> shedBySource = new ArrayList<>(1);
        List<Slot> shedByTotal = new ArrayList<>(1);
        Slot slot;
        synchronized (this) {
            Source own = sources.get(key);
            while (own != null && !own.slots.isEmpty() && own.slots.size() >= maxPendingPerAddress) {
                shedBySource.add(removeOldest(own));
            }
            while (pending >= maxPending && !byLoad.isEmpty()) {
                shedByTotal.add(removeOldest(byLoad.first()));
            }
            own = sources.computeIfAbsent(key, Source::new);
            byLoad.remove(own);
            slot = new Slot(own, ++admitted);
            own.slots.add(slot);
            pending++;
            byLoad.add(own);
        }
        for (Slot victim : shedBySource) {
            shedding(victim, key, true);
        }
        for (Slot victim : shedByTotal) {
            shedding(victim, key, false);
        }
        return slot;
    }

    /** Takes the oldest slot of {@code source} out of the counts; the caller sheds it. Holds the lock. */
    private Slot removeOldest(Source source) {
        Slot slot = source.slots.iterator().next();
        forget(slot);
        return slot;
    }

    /** Takes {@code slot} out of its source and the counts, and the source out of the tables once empty. */
    private void forget(Slot slot) {
        Source source = slot.source;
        byLoad.remove(source);
        source.slots.remove(slot);
        slot.released();
        pending--;
        if (source.slots.isEmpty()) {
            sources.remove(source.key);
        } else {
            byLoad.add(source);
        }
    }

    private void shedding(Slot victim, String newcomer, boolean ownSource) {
        SHED.increment();
        warnings.warn("Closed the oldest pending handshake from {} to admit a connection from {}: {} reached "
                + "(UcxChannelOption.{}); the source holding the most pending handshakes loses one", victim.source.key,
                newcomer, ownSource ? maxPendingPerAddress + " handshakes pending from one address"
                        : maxPending + " handshakes pending in all",
                ownSource ? "MAX_PENDING_HANDSHAKES_PER_ADDRESS" : "MAX_PENDING_HANDSHAKES");
        victim.shed();
    }

    private synchronized void release(Slot slot) {
        if (!slot.isReleased()) {
            forget(slot);
        }
    }

    /** The pending handshakes of one source, oldest first. */
    private static final class Source {
        final String key;
        final LinkedHashSet<Slot> slots = new LinkedHashSet<>();

        Source(String key) {
            this.key = key;
        }

        long oldest() {
            return slots.isEmpty() ? Long.MAX_VALUE : slots.iterator().next().order;
        }
    }

    /**
     * One pending handshake's slot: {@link #run()} gives it back (idempotent); {@link #onShed} says how to close
     * its connection should it be shed.
     */
    public final class Slot implements Runnable {
        private final Source source;
        private final long order;
        /** Guarded by the limits' lock. */
        private boolean released;
        private Runnable shedAction;
        private boolean shed;

        Slot(Source source, long order) {
            this.source = source;
            this.order = order;
        }

        @Override
        public void run() {
            release(this);
        }

        /** Out of the counts; under the limits' lock. */
        private void released() {
            released = true;
        }

        private boolean isReleased() {
            return released;
        }

        /** What closes this handshake's connection if it is shed; runs at once if it was shed already. */
        public void onShed(Runnable action) {
            boolean now;
            synchronized (this) {
                shedAction = action;
                now = shed;
            }
            if (now) {
                action.run();
            }
        }

        private void shed() {
            Runnable action;
            synchronized (this) {
                shed = true;
                action = shedAction;
            }
            if (action != null) {
                action.run();
            }
        }
    }

    /** Pending handshakes the process's servers shed since it started. */
    public static long handshakesShed() {
        return SHED.sum();
    }
}
