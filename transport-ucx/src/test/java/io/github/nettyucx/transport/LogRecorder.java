/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Records WARN and ERROR log events (Netty logs through SLF4J/logback in the tests), attached programmatically
 * to the root logger so that it works whatever logback configuration file is in use. Used to detect
 * exceptions that escape to Netty's logging ("An exceptionCaught() event ... reached at the tail of the
 * pipeline", "A task raised an exception") and buffer leaks ("LEAK: ...") reported by the paranoid leak
 * detector.
 */
public final class LogRecorder extends AppenderBase<ILoggingEvent> {
    private static final String CAUSE = "\n  caused by ";
    private static LogRecorder installed;

    private final List<String> events = new ArrayList<>();

    private LogRecorder() {
    }

    /** Installs the recorder on the root logger once and returns it. */
    public static synchronized LogRecorder install() {
        if (installed == null) {
            org.slf4j.Logger root = LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
            if (!(root instanceof Logger)) {
                throw new IllegalStateException("logback is not the SLF4J binding: " + root.getClass());
            }
            LogRecorder recorder = new LogRecorder();
            recorder.setName("netty-ucx-test-recorder");
            recorder.setContext(((Logger) root).getLoggerContext());
            recorder.start();
            ((Logger) root).addAppender(recorder);
            installed = recorder;
        }
        return installed;
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (!event.getLevel().isGreaterOrEqual(Level.WARN)) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        sb.append(event.getLevel()).append(' ').append(event.getLoggerName()).append(" [")
          .append(event.getThreadName()).append("] ").append(event.getFormattedMessage());
        IThrowableProxy t = event.getThrowableProxy();
        while (t != null) {
            sb.append(CAUSE).append(t.getClassName()).append(": ").append(t.getMessage());
            t = t.getCause();
        }
        synchronized (events) {
            events.add(sb.toString());
        }
    }

    public void clear() {
        synchronized (events) {
            events.clear();
        }
    }

    public List<String> events(Predicate<String> filter) {
        List<String> result = new ArrayList<>();
        synchronized (events) {
            for (String e : events) {
                if (filter.test(e)) {
                    result.add(e);
                }
            }
        }
        return result;
    }

    /** WARN/ERROR events that carry an exception: something threw where nobody handled it. */
    public List<String> withThrowable() {
        return events(e -> e.contains(CAUSE));
    }

    /** Events that report a leaked reference-counted object. */
    public List<String> leaks() {
        return events(e -> e.contains("LEAK:"));
    }

    /**
     * Makes the leak detector report whatever it can: leaked buffers are found when they are garbage collected
     * and reported on a later allocation of a tracked object.
     */
    public static void provokeLeakReports() throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            for (int j = 0; j < 200; j++) {
                ByteBuf a = PooledByteBufAllocator.DEFAULT.directBuffer(16);
                a.release();
                ByteBuf b = UnpooledByteBufAllocator.DEFAULT.directBuffer(16);
                b.release();
            }
        }
    }
}
