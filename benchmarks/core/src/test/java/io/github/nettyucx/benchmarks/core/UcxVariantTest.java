/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UcxVariantTest {
    @Test
    void namesAreFoundWhateverTheirCase() {
        assertEquals(UcxVariant.NOSLICE, UcxVariant.named(" UCX-NoSlice ").orElseThrow());
        assertEquals(List.of("-Dio.github.nettyucx.waitStrategy=sleep"),
                UcxVariant.named("ucx-sleep").orElseThrow().jvmOptions());
        assertTrue(UcxVariant.named("ucx").isEmpty(), "plain ucx is no variant: it keeps the defaults");
        assertTrue(UcxVariant.named("epoll").isEmpty());
    }

    @Test
    void everyVariantIsUcxWithOptionsAndANameOfItsOwn() {
        Set<String> ids = new HashSet<>();
        for (UcxVariant v : UcxVariant.values()) {
            assertTrue(v.id().startsWith("ucx-"), v.id());
            assertTrue(ids.add(v.id()), "two variants named " + v.id());
            assertTrue(!v.jvmOptions().isEmpty() && v.jvmOptions().stream()
                    .allMatch(o -> o.startsWith("-Dio.github.nettyucx.")), v.id() + ": " + v.jvmOptions());
            assertTrue(UcxVariant.describeAll().contains(v.id() + " ("), v.id());
        }
    }
}
