/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.benchmarks.core.UcxVariant;
import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchTransportTest {
    @Test
    void everyUcxVariantIsUcxWithItsOptions() {
        for (UcxVariant v : UcxVariant.values()) {
            BenchTransport t = BenchTransport.of(v.id());
            assertTrue(t.isUcx(), v.id());
            assertEquals(v.jvmOptions(), t.jvmOptions(), v.id());
        }
    }

    @Test
    void plainTransportsKeepTheirDefaults() {
        assertEquals(new BenchTransport("ucx", NettyTransport.UCX, List.of()), BenchTransport.of("ucx"));
        assertEquals(new BenchTransport("epoll", NettyTransport.EPOLL, List.of()), BenchTransport.of(" EPOLL "));
        assertTrue(!BenchTransport.of("nio").isUcx());
        assertEquals(NettyTransport.IO_URING, BenchTransport.of("io_uring").netty());
    }

    @Test
    void otherNamesAreRefused() {
        // ucx-tcp is a Netty transport, but no framework integration takes it.
        assertThrows(IllegalArgumentException.class, () -> BenchTransport.of("ucx-tcp"));
        assertThrows(IllegalArgumentException.class, () -> BenchTransport.of("ucx-fast"));
    }
}
