/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fails a test class when Netty's leak detector (paranoid in the test JVM) reported a buffer that was never
 * released while the class ran: Vert.x keeps buffers of allocators it does not know without releasing them, so a
 * UCX receive buffer that reached it would leak. Netty logs through java.util.logging here; the reports are
 * collected from its leak detector's logger, and garbage is collected at the end so that they come out.
 */
public final class NoLeaks implements BeforeAllCallback, AfterAllCallback {
    private static final Logger LEAK_LOGGER = Logger.getLogger(ResourceLeakDetector.class.getName());

    private final Recorder recorder = new Recorder();

    @Override
    public void beforeAll(ExtensionContext context) {
        LEAK_LOGGER.addHandler(recorder);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            provokeLeakReports();
        } finally {
            LEAK_LOGGER.removeHandler(recorder);
        }
        List<String> leaks = recorder.leaks();
        assertTrue(leaks.isEmpty(), () -> leaks.size() + " buffer leaks reported, the first:\n" + leaks.get(0));
    }

    /** The detector reports a leak when it next tracks an allocation after the buffer was collected. */
    private static void provokeLeakReports() throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            for (int j = 0; j < 200; j++) {
                ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(16);
                buf.release();
            }
        }
    }

    private static final class Recorder extends Handler {
        private final List<String> leaks = new ArrayList<>();

        @Override
        public synchronized void publish(LogRecord record) {
            if (record.getMessage() != null && record.getMessage().contains("LEAK")) {
                leaks.add(record.getMessage());
            }
        }

        synchronized List<String> leaks() {
            return new ArrayList<>(leaks);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
