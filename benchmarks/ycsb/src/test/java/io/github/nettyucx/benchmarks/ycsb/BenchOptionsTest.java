/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOptionsTest {
    @Test
    void oddRunsGoInTheGivenOrderAndEvenRunsInReverse() {
        BenchOptions o = BenchOptions.parse(new String[] {"--transports", "ucx,ucx-spin,epoll", "--runs", "5"});
        assertEquals(5, o.runs);
        assertEquals(List.of("ucx", "ucx-spin", "epoll"), o.transportsInRun(1));
        assertEquals(List.of("epoll", "ucx-spin", "ucx"), o.transportsInRun(2));
        assertEquals(List.of("ucx", "ucx-spin", "epoll"), o.transportsInRun(5));
        assertEquals(List.of("ucx", "ucx-spin", "epoll"), o.transports, "the given order is not changed");
    }

    @Test
    void runsBelowOneAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[] {"--runs", "0"}));
    }

    @Test
    void ucxSpinIsUcxWithSpinThenSleepInEveryJvm() {
        TransportVariant spin = TransportVariant.of("ucx-spin");
        assertEquals(NettyTransport.UCX, spin.transport());
        assertEquals(List.of("-Dio.github.nettyucx.waitStrategy=spin_then_sleep"), spin.jvmOptions());
        assertEquals(List.of("-Dio.github.nettyucx.waitStrategy=sleep"), TransportVariant.of("ucx-sleep").jvmOptions());
        assertEquals(List.of(), TransportVariant.of("ucx").jvmOptions(), "plain ucx keeps the default");
        assertTrue(spin.isUcx());
        assertTrue(!TransportVariant.of("epoll").isUcx());
        assertThrows(IllegalArgumentException.class, () -> TransportVariant.of("ucx-fast"));
    }
}
