/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The lines a child process writes, read on a daemon thread as they come, so that the parent can wait for
 * one with a time limit (a child that hangs must not hang its parent) and the child never blocks on a full
 * pipe. The end of the output is a null line.
 */
public final class OutputLines {
    private static final Object END = new Object();

    private final BlockingQueue<Object> lines = new LinkedBlockingQueue<>();
    private volatile boolean ended;

    public OutputLines(InputStream in, String threadName) {
        Thread reader = new Thread(() -> pump(in), threadName);
        reader.setDaemon(true);
        reader.start();
    }

    private void pump(InputStream in) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // The process is gone (or was killed): its output ends here.
        }
        lines.add(END);
    }

    /** The next line, waiting as long as it takes; null at the end of the output. */
    public String next() throws InterruptedException {
        return ended ? null : unwrap(lines.take());
    }

    /** The next line; null at the end of the output; {@link TimeoutException} when none came in time. */
    public String next(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
        if (ended) {
            return null;
        }
        Object line = lines.poll(timeout, unit);
        if (line == null) {
            throw new TimeoutException("no output line within " + unit.toMillis(timeout) + " ms");
        }
        return unwrap(line);
    }

    /**
     * Skips lines until one starts with {@code prefix} and returns it; null when the output ended first;
     * {@link TimeoutException} when none came within the time limit, counted from this call.
     */
    public String awaitPrefix(String prefix, long timeout, TimeUnit unit)
            throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true) {
            String line = next(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || line.startsWith(prefix)) {
                return line;
            }
        }
    }

    private String unwrap(Object line) {
        if (line == END) {
            ended = true;
            return null;
        }
        return (String) line;
    }
}
