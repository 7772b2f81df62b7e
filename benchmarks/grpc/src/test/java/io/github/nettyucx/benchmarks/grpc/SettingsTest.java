/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Which client JVMs an invocation runs, and in which order each run takes them. */
class SettingsTest {
    @Test
    void eachTransportGetsBothExecutorsAndOddRunsGoForwardEvenRunsBack() {
        GrpcBenchmark.Settings settings = settings("unary:1024:1", "blocking:1024:1,blocking:1024:8");
        List<GrpcBenchmark.Variant> variants = settings.variants(new LinkedHashMap<>());
        List<String> forward = List.of("ucx (grpc allocator, direct executor)",
                "ucx (channel allocator, direct executor)", "ucx (grpc allocator, default executor)",
                "nio (grpc allocator, direct executor)", "nio (grpc allocator, default executor)");
        assertEquals(forward, labels(GrpcBenchmark.Settings.order(variants, 1)));
        assertEquals(List.of(forward.get(4), forward.get(3), forward.get(2), forward.get(1), forward.get(0)),
                labels(GrpcBenchmark.Settings.order(variants, 2)));
        assertEquals(forward, labels(GrpcBenchmark.Settings.order(variants, 3)));
        assertEquals("blocking:1024:8", variants.get(2).scenarios.get(1).toString());
    }

    @Test
    void anExecutorWithoutScenariosHasNoVariants() {
        List<GrpcBenchmark.Variant> variants = settings("", "blocking:1024:8").variants(new LinkedHashMap<>());
        assertEquals(List.of("ucx (grpc allocator, default executor)", "nio (grpc allocator, default executor)"),
                labels(variants));
        assertThrows(IllegalArgumentException.class, () -> settings("", ""));
    }

    private static GrpcBenchmark.Settings settings(String direct, String pooled) {
        Map<ExecutorChoice, List<Scenario>> scenarios = new LinkedHashMap<>();
        scenarios.put(ExecutorChoice.DIRECT, Scenario.parseList(direct));
        scenarios.put(ExecutorChoice.DEFAULT, Scenario.parseList(pooled));
        return new GrpcBenchmark.Settings("ucx,nio", "ucx", 3, 10, 40, 2, 10, scenarios, "full");
    }

    private static List<String> labels(List<GrpcBenchmark.Variant> variants) {
        return variants.stream().map(GrpcBenchmark.Variant::label).collect(Collectors.toList());
    }
}
