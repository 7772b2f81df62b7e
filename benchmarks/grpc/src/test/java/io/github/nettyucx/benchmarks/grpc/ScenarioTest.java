/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scenarios as the command line writes them, and as the report names them. */
class ScenarioTest {
    @Test
    void everyKindReadsBackAsWritten() {
        for (String text : List.of("unary:16:64", "blocking:1024:8", "stream:65536")) {
            assertEquals(text, Scenario.parse(text).toString());
        }
        Scenario blocking = Scenario.parse("blocking:1024:8");
        assertEquals(Scenario.Kind.BLOCKING, blocking.kind);
        assertEquals(1024, blocking.size);
        assertEquals(8, blocking.concurrency);
        assertTrue(blocking.measuresCalls());
        assertFalse(Scenario.parse("stream:1024").measuresCalls());
    }

    @Test
    void labelsNameThreadsAndCallsInFlight() {
        assertEquals("blocking 1 KiB, 1 thread", Scenario.parse("blocking:1024:1").label());
        assertEquals("blocking 1 KiB, 8 threads", Scenario.parse("blocking:1024:8").label());
        assertEquals("unary 16 B x64", Scenario.parse("unary:16:64").label());
        assertEquals("stream 64 KiB", Scenario.parse("stream:65536").label());
    }

    @Test
    void listsMayBeEmpty() {
        assertEquals(List.of(), Scenario.parseList(""));
        assertEquals(2, Scenario.parseList("blocking:1024:1, blocking:1024:8").size());
    }

    @Test
    void badScenariosSayWhatIsExpected() {
        for (String bad : List.of("blocking:1024", "blocking:1024:0", "unary:x:1", "stream:1:2", "bidi:1")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Scenario.parse(bad), bad);
            assertTrue(e.getMessage().contains("blocking:SIZE:THREADS") || e.getMessage().contains(">= 1"),
                    e.getMessage());
        }
    }
}
