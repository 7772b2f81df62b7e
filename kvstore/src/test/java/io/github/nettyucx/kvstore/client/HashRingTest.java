/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HashRingTest {
    @Test
    void spreadsKeysEvenlyAndMovesFewWhenANodeJoins() {
        HashRing<String> three = new HashRing<>(List.of("a", "b", "c"), List.of("h:1", "h:2", "h:3"));
        HashRing<String> four = new HashRing<>(List.of("a", "b", "c", "d"), List.of("h:1", "h:2", "h:3", "h:4"));
        Map<String, Integer> counts = new HashMap<>();
        int keys = 30_000;
        int moved = 0;
        for (int i = 0; i < keys; i++) {
            String key = "user" + i;
            String before = three.nodeFor(key);
            counts.merge(before, 1, Integer::sum);
            String after = four.nodeFor(key);
            if (!before.equals(after)) {
                moved++;
                // A key only ever moves to the new node.
                assertEquals("d", after, key);
            }
        }
        for (int c : counts.values()) {
            assertTrue(c > keys / 3 * 0.8 && c < keys / 3 * 1.2, "uneven shares " + counts);
        }
        // About a quarter should move to the new node.
        assertTrue(moved > keys / 4 * 0.7 && moved < keys / 4 * 1.3, moved + " of " + keys + " keys moved");
    }
}
