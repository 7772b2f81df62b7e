/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Collects the paranoid leak detector's "LEAK:" reports (it logs them through SLF4J) so that a test
 * can fail on them instead of leaving them in a log nobody reads.
 */
public final class LeakWatch extends AppenderBase<ILoggingEvent> {
    private static LeakWatch installed;

    private final List<String> leaks = new ArrayList<>();

    public static synchronized LeakWatch install() {
        if (installed == null) {
            Logger logger = (Logger) LoggerFactory.getLogger(ResourceLeakDetector.class);
            LeakWatch watch = new LeakWatch();
            watch.setName("kvstore-leak-watch");
            watch.setContext(logger.getLoggerContext());
            watch.start();
            logger.addAppender(watch);
            installed = watch;
        }
        return installed;
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (event.getFormattedMessage().contains("LEAK:")) {
            synchronized (leaks) {
                leaks.add(event.getFormattedMessage());
            }
        }
    }

    /**
     * Lets the detector find buffers that became garbage without release (it notices them on later
     * allocations after a collection) and fails if it reported any.
     */
    public void assertNoLeaks() throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            for (int j = 0; j < 200; j++) {
                ByteBuf a = PooledByteBufAllocator.DEFAULT.directBuffer(16);
                a.release();
                ByteBuf b = UnpooledByteBufAllocator.DEFAULT.heapBuffer(16);
                b.release();
            }
        }
        synchronized (leaks) {
            List<String> found = new ArrayList<>(leaks);
            leaks.clear();
            assertTrue(found.isEmpty(), "buffer leaks reported:\n" + String.join("\n", found));
        }
    }
}
