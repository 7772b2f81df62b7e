/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class KvClientConfigTest {
    @Test
    void ioThreadsDefaultToHalfTheProcessorsFromOneToFour() {
        assertEquals(1, KvClientConfig.defaultIoThreads(1));
        assertEquals(1, KvClientConfig.defaultIoThreads(2));
        assertEquals(1, KvClientConfig.defaultIoThreads(3));
        assertEquals(2, KvClientConfig.defaultIoThreads(4));
        assertEquals(4, KvClientConfig.defaultIoThreads(8));
        assertEquals(4, KvClientConfig.defaultIoThreads(64));
    }

    @Test
    void ioThreadsSetExplicitlyAreKept() {
        assertEquals(3, new KvClientConfig().ioThreads(3).ioThreads());
        assertThrows(IllegalArgumentException.class, () -> new KvClientConfig().ioThreads(0));
    }
}
