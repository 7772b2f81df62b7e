/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.github.nettyucx.transport.LogRecorder;
import io.github.nettyucx.transport.UcxTransportMetrics;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link UcxHandshakeLimits}: every handshake is admitted; at a limit the oldest pending handshake of the source
 * holding the most (an IPv4 address, an IPv6 /64) is shed, so that a flood sheds its own and the others are served;
 * what is held stays bounded, a slot goes back once however often it is given back, shedding is logged and counted.
 * No native library, no sockets.
 */
class UcxHandshakeLimitsTest {
    private static final InetAddress A = address("10.0.0.1");
    private static final InetAddress B = address("10.0.0.2");
    private static final InetAddress C = address("10.0.0.3");

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static UcxHandshakeLimits limits(int total, int perAddress) {
        UcxHandshakeLimits limits = new UcxHandshakeLimits();
        limits.maxPending(total);
        limits.maxPendingPerAddress(perAddress);
        return limits;
    }

    /** A slot whose shedding is counted in {@code shed}. */
    private static UcxHandshakeLimits.Slot admit(UcxHandshakeLimits limits, InetAddress peer, AtomicInteger shed) {
        UcxHandshakeLimits.Slot slot = limits.admit(peer);
        slot.onShed(shed::incrementAndGet);
        return slot;
    }

    @Test
    void theDefaultsAreThoseDocumented() {
        UcxHandshakeLimits limits = new UcxHandshakeLimits();
        assertEquals(4096, limits.maxPending());
        assertEquals(1024, limits.maxPendingPerAddress());
        assertEquals(0, limits.pending());
    }

    @Test
    void atTheTotalLimitTheOldestOfTheSourceHoldingTheMostIsShed() {
        UcxHandshakeLimits limits = limits(4, 100);
        AtomicInteger shedA = new AtomicInteger();
        AtomicInteger shedB = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            admit(limits, A, shedA);
        }
        admit(limits, B, shedB);
        AtomicInteger shedC = new AtomicInteger();
        admit(limits, C, shedC);
        assertEquals(4, limits.pending(), "the total holds");
        assertEquals(1, shedA.get(), "A holds the most: one of its handshakes made room");
        assertEquals(0, shedB.get());
        assertEquals(2, limits.pendingFrom(A));
        assertEquals(1, limits.pendingFrom(C), "the newcomer is admitted");
    }

    @Test
    void atTheLimitOfOneSourceItsOwnOldestIsShed() {
        UcxHandshakeLimits limits = limits(100, 2);
        AtomicInteger first = new AtomicInteger();
        AtomicInteger later = new AtomicInteger();
        admit(limits, A, first);
        admit(limits, A, later);
        AtomicInteger b = new AtomicInteger();
        admit(limits, B, b);
        admit(limits, A, later);
        assertEquals(1, first.get(), "A's oldest made room for A's newest");
        assertEquals(0, later.get());
        assertEquals(0, b.get(), "another source is not touched");
        assertEquals(2, limits.pendingFrom(A));
        assertEquals(3, limits.pending());
    }

    @Test
    void amongEquallyLoadedSourcesTheOldestHandshakeGoes() {
        UcxHandshakeLimits limits = limits(2, 10);
        AtomicInteger a = new AtomicInteger();
        AtomicInteger b = new AtomicInteger();
        admit(limits, A, a);
        admit(limits, B, b);
        admit(limits, C, new AtomicInteger());
        assertEquals(1, a.get(), "A's handshake is the oldest");
        assertEquals(0, b.get());
    }

    /** One IPv6 host has a whole /64: its addresses count as one source. */
    @Test
    void ipv6AddressesOfOneSlash64CountTogether() {
        assertEquals("2001:db8:1:2:0:0:0:0/64", UcxHandshakeLimits.sourceOf(address("2001:db8:1:2::1")));
        assertEquals(UcxHandshakeLimits.sourceOf(address("2001:db8:1:2::1")),
                UcxHandshakeLimits.sourceOf(address("2001:db8:1:2:ffff:ffff:ffff:ffff")));
        assertEquals("10.0.0.1", UcxHandshakeLimits.sourceOf(A));
        assertEquals("unknown", UcxHandshakeLimits.sourceOf(null));
        UcxHandshakeLimits limits = limits(100, 2);
        AtomicInteger first = new AtomicInteger();
        AtomicInteger neighbour = new AtomicInteger();
        admit(limits, address("2001:db8:1:2::1"), first);
        admit(limits, address("2001:db8:1:3::1"), neighbour);
        admit(limits, address("2001:db8:1:2::2"), new AtomicInteger());
        admit(limits, address("2001:db8:1:2::3"), new AtomicInteger());
        assertEquals(1, first.get(), "a third address of the same /64 is at that /64's limit");
        assertEquals(0, neighbour.get(), "the next /64 is another source");
        assertEquals(2, limits.pendingFrom(address("2001:db8:1:2::99")));
    }

    /**
     * A flood from one address, and a few addresses beside it, cannot push out the handshakes of sources that hold
     * one each: the flooders shed their own.
     */
    @Test
    void aFloodShedsItsOwnAndNeverTheOthers() {
        UcxHandshakeLimits limits = limits(20, 12);
        List<AtomicInteger> wellBehaved = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            AtomicInteger shed = new AtomicInteger();
            wellBehaved.add(shed);
            admit(limits, address("192.168.0." + (i + 1)), shed);
        }
        AtomicInteger flooders = new AtomicInteger();
        for (int i = 0; i < 10_000; i++) {
            admit(limits, i % 10 < 7 ? A : address("10.0.1." + (i % 10)), flooders);
        }
        for (AtomicInteger shed : wellBehaved) {
            assertEquals(0, shed.get(), "a source with one pending handshake lost it");
        }
        assertEquals(20, limits.pending(), "bounded");
        assertEquals(10_005 - 20, flooders.get(), "the flooders shed as many as they went over");
        assertTrue(limits.pendingFrom(A) <= 12, "A: " + limits.pendingFrom(A));
    }

    @Test
    void givingASlotBackTwiceGivesItBackOnce() {
        UcxHandshakeLimits limits = limits(10, 10);
        UcxHandshakeLimits.Slot a = limits.admit(A);
        limits.admit(A);
        a.run();
        a.run();
        a.run();
        assertEquals(1, limits.pending(), "one slot given back three times");
        assertEquals(1, limits.pendingFrom(A));
    }

    /** A shed slot is given back when it is shed: its channel's own giving back later counts for nothing. */
    @Test
    void aShedSlotIsGivenBackOnce() {
        UcxHandshakeLimits limits = limits(1, 1);
        UcxHandshakeLimits.Slot a = limits.admit(A);
        AtomicInteger late = new AtomicInteger();
        limits.admit(B);
        assertEquals(1, limits.pending());
        a.onShed(late::incrementAndGet);
        assertEquals(1, late.get(), "an action set after the shedding runs at once");
        a.run();
        assertEquals(1, limits.pending(), "B's slot is still counted");
        assertEquals(1, limits.pendingFrom(B));
    }

    @Test
    void countsGoBackTo0() {
        UcxHandshakeLimits limits = limits(4, 3);
        for (int round = 0; round < 3; round++) {
            List<UcxHandshakeLimits.Slot> slots = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                slots.add(limits.admit(i % 2 == 0 ? A : B));
            }
            assertEquals(4, limits.pending(), "round " + round);
            for (UcxHandshakeLimits.Slot slot : slots) {
                slot.run();
                slot.run();
            }
            assertEquals(0, limits.pending(), "round " + round);
            assertEquals(0, limits.pendingFrom(A));
        }
    }

    @Test
    void limitsLoweredLaterShedOnTheNextHandshake() {
        UcxHandshakeLimits limits = limits(10, 10);
        for (int i = 0; i < 5; i++) {
            limits.admit(A);
        }
        limits.maxPending(2);
        limits.admit(B);
        assertEquals(2, limits.pending());
    }

    /** Shedding is logged as a WARN naming both sources and the option, and counted. */
    @Test
    void sheddingIsLoggedWithTheOptionToRaiseAndCounted() {
        LogRecorder log = LogRecorder.install();
        log.clear();
        long before = UcxTransportMetrics.handshakesShed();
        UcxHandshakeLimits limits = limits(1, 1);
        limits.admit(A);
        limits.admit(B);
        List<String> warnings = log.events(e -> e.contains("Closed the oldest pending handshake from"));
        assertEquals(1, warnings.size(), log.events(e -> true).toString());
        assertTrue(warnings.get(0).contains("10.0.0.1") && warnings.get(0).contains("10.0.0.2"), warnings.get(0));
        assertTrue(warnings.get(0).contains("MAX_PENDING_HANDSHAKES"), warnings.get(0));
        assertEquals(before + 1, UcxTransportMetrics.handshakesShed());
    }
}
