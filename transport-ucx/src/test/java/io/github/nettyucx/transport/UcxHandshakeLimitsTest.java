/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link UcxHandshakeLimits}: what strangers can make a server hold is bounded in all and per remote address, a slot
 * goes back once however often it is given back, a refusal takes no slot, and one address at its limit does not
 * lock out the others. No native library, no sockets.
 */
class UcxHandshakeLimitsTest {
    private static final InetAddress A = address(10, 0, 0, 1);
    private static final InetAddress B = address(10, 0, 0, 2);
    private static final InetAddress C = address(10, 0, 0, 3);

    private static InetAddress address(int... bytes) {
        byte[] raw = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            raw[i] = (byte) bytes[i];
        }
        try {
            return InetAddress.getByAddress(raw);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static UcxHandshakeLimits limits(int total, int perAddress) {
        UcxHandshakeLimits limits = new UcxHandshakeLimits();
        limits.maxPending(total);
        limits.maxPendingPerAddress(perAddress);
        return limits;
    }

    @Test
    void theDefaultsAreThoseDocumented() {
        UcxHandshakeLimits limits = new UcxHandshakeLimits();
        assertEquals(4096, limits.maxPending());
        assertEquals(1024, limits.maxPendingPerAddress());
        assertEquals(0, limits.pending());
    }

    @Test
    void theTotalLimitRefusesTheNextHandshakeFromAnyAddress() {
        UcxHandshakeLimits limits = limits(3, 100);
        List<Runnable> slots = new ArrayList<>();
        for (InetAddress peer : new InetAddress[] {A, B, C}) {
            Runnable slot = limits.tryAcquire(peer);
            assertNotNull(slot, peer.toString());
            slots.add(slot);
        }
        assertEquals(3, limits.pending());
        for (InetAddress peer : new InetAddress[] {A, B, C, address(192, 168, 0, 1)}) {
            assertNull(limits.tryAcquire(peer), "over the total limit: " + peer);
        }
        assertEquals(3, limits.pending(), "a refusal takes no slot");
        slots.get(1).run();
        assertEquals(2, limits.pending());
        assertNotNull(limits.tryAcquire(C), "a slot given back is free for anyone");
        assertNull(limits.tryAcquire(B));
    }

    @Test
    void thePerAddressLimitRefusesThatAddressOnly() {
        UcxHandshakeLimits limits = limits(100, 2);
        Runnable first = limits.tryAcquire(A);
        Runnable second = limits.tryAcquire(A);
        assertNotNull(first);
        assertNotNull(second);
        for (int i = 0; i < 5; i++) {
            assertNull(limits.tryAcquire(A), "a third handshake from A");
        }
        assertEquals(2, limits.pending(), "refusals by address take no slot in all");
        assertNotNull(limits.tryAcquire(B), "another address is still accepted");
        assertNotNull(limits.tryAcquire(B));
        assertNull(limits.tryAcquire(B));
        assertNotNull(limits.tryAcquire(C));
        assertEquals(5, limits.pending());
        first.run();
        assertNotNull(limits.tryAcquire(A), "A is below its limit again");
        assertNull(limits.tryAcquire(A));
    }

    /** A refusal by the total limit leaves no count behind for its address, nor one by address in all. */
    @Test
    void refusalsLeaveNoCountBehind() {
        UcxHandshakeLimits limits = limits(1, 1);
        Runnable a = limits.tryAcquire(A);
        assertNotNull(a);
        for (int i = 0; i < 10; i++) {
            assertNull(limits.tryAcquire(B), "over the total");
            assertNull(limits.tryAcquire(A), "over both");
        }
        a.run();
        assertEquals(0, limits.pending());
        Runnable b = limits.tryAcquire(B);
        assertNotNull(b, "B's refusals counted against it");
        b.run();
        assertNotNull(limits.tryAcquire(A), "A's refusals counted against it");
    }

    @Test
    void givingASlotBackTwiceGivesItBackOnce() {
        UcxHandshakeLimits limits = limits(2, 2);
        Runnable a = limits.tryAcquire(A);
        Runnable other = limits.tryAcquire(A);
        assertNotNull(a);
        assertNotNull(other);
        a.run();
        a.run();
        a.run();
        assertEquals(1, limits.pending(), "one slot given back three times");
        assertNotNull(limits.tryAcquire(A));
        assertNull(limits.tryAcquire(A), "A holds 2 again: its count was not lowered thrice");
        assertNull(limits.tryAcquire(B), "the total is 2 again");
    }

    @Test
    void countsGoBackTo0AndTheLimitsHoldAgain() {
        UcxHandshakeLimits limits = limits(4, 3);
        for (int round = 0; round < 3; round++) {
            List<Runnable> slots = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                slots.add(limits.tryAcquire(A));
            }
            slots.add(limits.tryAcquire(B));
            assertFalse(slots.contains(null), "round " + round + ": " + slots);
            assertEquals(4, limits.pending());
            assertNull(limits.tryAcquire(C), "round " + round);
            for (Runnable slot : slots) {
                slot.run();
                slot.run();
            }
            assertEquals(0, limits.pending(), "round " + round);
        }
        Runnable[] again = {limits.tryAcquire(A), limits.tryAcquire(A), limits.tryAcquire(A)};
        for (Runnable slot : again) {
            assertNotNull(slot);
        }
        assertNull(limits.tryAcquire(A), "the per-address limit holds as at first");
    }

    @Test
    void limitsChangedLaterApplyToTheNextHandshake() {
        UcxHandshakeLimits limits = limits(10, 10);
        assertNotNull(limits.tryAcquire(A));
        assertNotNull(limits.tryAcquire(A));
        limits.maxPendingPerAddress(2);
        assertNull(limits.tryAcquire(A));
        limits.maxPending(2);
        assertNull(limits.tryAcquire(B));
        assertEquals(2, limits.pending());
    }

    /** A refusal is logged as a WARN naming the address, the limit and the option that raises it. */
    @Test
    void aRefusalIsLoggedWithTheOptionToRaise() {
        LogRecorder log = LogRecorder.install();
        log.clear();
        UcxHandshakeLimits limits = limits(1, 1);
        assertNotNull(limits.tryAcquire(A));
        assertNull(limits.tryAcquire(B));
        List<String> warnings = log.events(e -> e.contains("Refused a connection from"));
        assertEquals(1, warnings.size(), log.events(e -> true).toString());
        assertTrue(warnings.get(0).contains("10.0.0.2"), warnings.get(0));
        assertTrue(warnings.get(0).contains("MAX_PENDING_HANDSHAKES"), warnings.get(0));
    }
}
