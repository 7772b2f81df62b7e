/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Consistent hashing: each node owns {@value #POINTS_PER_NODE} points on a 64-bit ring and a key
 * goes to the node owning the first point at or after the key's hash. Adding or removing a node
 * moves only the keys next to its points, and the many points per node even out the shares.
 */
final class HashRing<N> {
    static final int POINTS_PER_NODE = 160;

    private final TreeMap<Long, N> ring = new TreeMap<>();

    /** {@code names} identify the nodes on the ring (e.g. host:port) and must be distinct. */
    HashRing(List<N> nodes, List<String> names) {
        if (nodes.isEmpty() || nodes.size() != names.size()) {
            throw new IllegalArgumentException("need one name per node and at least one node");
        }
        for (int i = 0; i < nodes.size(); i++) {
            for (int p = 0; p < POINTS_PER_NODE; p++) {
                ring.put(hash(names.get(i) + "#" + p), nodes.get(i));
            }
        }
    }

    N nodeFor(String key) {
        Map.Entry<Long, N> e = ring.ceilingEntry(hash(key));
        return e != null ? e.getValue() : ring.firstEntry().getValue();
    }

    /** FNV-1a over the UTF-8 bytes, then a 64-bit finaliser so that similar keys spread out. */
    static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
