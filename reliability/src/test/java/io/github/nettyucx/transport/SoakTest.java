/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The mixed soak: 30 s in CI, 10 minutes in the long suite, heap and RSS sampled (see {@link SoakDriver}).
 * Three loads over UCX share the process: checked echo over 8 connections, gRPC bidirectional streams of
 * checked messages, and YCSB workload A with 8 client threads and data-integrity checks against a kvstore
 * server.
 */
class SoakTest {

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void mixedSoak() throws Exception {
        TestTransport.UCX.assumeAvailable();
        long seconds = LongSuite.choose(30, 600);
        SoakDriver driver = new SoakDriver(List.of(new EchoSoakWorkload(8, true), new GrpcStreamSoakWorkload(2),
                new YcsbSoakWorkload(8, 1_000)), seconds, LongSuite.choose(3, 20), 32L << 20);
        List<SoakDriver.Sample> samples = driver.run(Paths.get("target", "soak-" + seconds + "s.csv"));
        driver.check(samples);
    }

    /**
     * The echo load for 10 s, with the groups shut down as soon as the channels' close futures completed,
     * while their native connections still linger: the JVM used to abort here (UCX asserted on endpoints with
     * requests in flight in ucp_worker_destroy); the worker now drains its closing endpoints first.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shutdownRightAfterClose() throws Exception {
        TestTransport.UCX.assumeAvailable();
        SoakDriver driver = new SoakDriver(List.of(new EchoSoakWorkload(8, false)), 10, 2, 32L << 20);
        driver.check(driver.run(Paths.get("target", "soak-shutdown.csv")));
    }
}
