/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.consumer;

import io.github.nettyucx.transport.Ucx;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UcxEchoTest {
    @Test
    void echoesOverUcx() throws Exception {
        // Fails, not skips, where the transport cannot run: the point is that the installed jars work here.
        assertTrue(Ucx.isAvailable(), () -> "the UCX transport is unavailable: " + Ucx.unavailabilityCause());
        String lanes = UcxEcho.run();
        assertFalse(lanes.isBlank(), "no UCX lanes reported");
    }
}
