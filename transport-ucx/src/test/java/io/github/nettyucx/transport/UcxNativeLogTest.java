/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxNativeLog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** UCX's own log lines reach Netty's logger ({@link UcxNativeLog}), not stderr, from any thread. */
class UcxNativeLogTest {
    private LogRecorder recorder;

    @BeforeEach
    void setUp() {
        TestTransport.requireUcx();
        recorder = LogRecorder.install();
    }

    @Test
    void aUcxWarningArrivesAsAWarningOfTheUcxLogger() {
        String marker = "netty-ucx log route " + System.nanoTime();
        UcxNative.logUcxWarning(marker);
        List<String> lines = recorder.events(e -> e.contains(marker));
        assertEquals(1, lines.size(), "lines with the marker: " + lines);
        String line = lines.get(0);
        assertTrue(line.startsWith("WARN " + UcxNativeLog.LOGGER_NAME + " "), line);
        assertTrue(line.contains("ucx_log.c:"), "the line names UCX's source file: " + line);
    }

    @Test
    void aWarningFromAnotherThreadIsLoggedThere() throws Exception {
        String marker = "netty-ucx log route from another thread " + System.nanoTime();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                UcxNative.logUcxWarning(marker);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "not-an-event-loop");
        thread.start();
        thread.join(10_000);
        assertEquals(null, failure.get(), "the native call threw");
        assertEquals(1, recorder.events(e -> e.contains(marker) && e.contains("[not-an-event-loop]")).size());
    }
}
