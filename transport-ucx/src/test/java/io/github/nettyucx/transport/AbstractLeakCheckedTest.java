/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A test class that may leak no buffer: it records the log ({@link LogRecorder}) and fails once its tests are
 * done when Netty's leak detector reported a leak.
 */
abstract class AbstractLeakCheckedTest {
    static LogRecorder log;

    @BeforeAll
    static void installLogRecorder() {
        log = LogRecorder.install();
    }

    @AfterAll
    static void noLeaks() throws InterruptedException {
        LogRecorder.provokeLeakReports();
        List<String> leaks = log.leaks();
        assertTrue(leaks.isEmpty(), "buffer leaks reported:\n" + String.join("\n", leaks));
    }
}
