/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fails a test class when Netty's leak detector (paranoid in the tests) reported a leaked buffer while it ran.
 * The detector is replaced by one that also records its reports. That has to happen before the first
 * buffer class initialises its detector, which is why this extension's class does it when JUnit loads it,
 * ahead of any test.
 */
public final class LeakCheck implements AfterAllCallback {
    private static final List<String> LEAKS = new ArrayList<>();

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        List<String> leaks = collectReports();
        assertTrue(leaks.isEmpty(), "Netty reported leaked buffers during " + context.getDisplayName() + ":\n"
                + String.join("\n", leaks));
    }

    /** Makes the detector report what it can, and returns (and forgets) every report so far. */
    static List<String> collectReports() throws InterruptedException {
        provokeReports();
        synchronized (LEAKS) {
            List<String> leaks = new ArrayList<>(LEAKS);
            LEAKS.clear();
            return leaks;
        }
    }

    /**
     * Leaks surface when a lost buffer has been garbage collected and a later allocation polls the
     * detector's queue: collect, then allocate a little from both kinds of allocator.
     */
    private static void provokeReports() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
            for (int j = 0; j < 20; j++) {
                ByteBuf a = PooledByteBufAllocator.DEFAULT.directBuffer(64);
                ByteBuf b = UnpooledByteBufAllocator.DEFAULT.heapBuffer(64);
                a.release();
                b.release();
            }
        }
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                   long maxActive) {
            return new ResourceLeakDetector<T>(resource, samplingInterval) {
                @Override
                protected void reportTracedLeak(String resourceType, String records) {
                    record("LEAK: " + resourceType + records);
                    super.reportTracedLeak(resourceType, records);
                }

                @Override
                protected void reportUntracedLeak(String resourceType) {
                    record("LEAK: " + resourceType + " (untraced)");
                    super.reportUntracedLeak(resourceType);
                }
            };
        }

        private static void record(String report) {
            synchronized (LEAKS) {
                LEAKS.add(report);
            }
        }
    }
}
