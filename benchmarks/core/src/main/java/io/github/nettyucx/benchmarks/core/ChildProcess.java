/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A process started by a benchmark or example (a server JVM, a client JVM, {@code ucx_perftest}) that does not
 * outlive this JVM: a process still running when this JVM exits, normally, on an exception or on Ctrl-C, is
 * killed together with the processes it started. A process left running would hold ports and CPUs and distort
 * every later measurement on the machine.
 */
public final class ChildProcess implements AutoCloseable {
    private static final Set<ChildProcess> LIVE = ConcurrentHashMap.newKeySet();
    private static final long KILL_WAIT_SECONDS = 5;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcess::killAll, "kill-child-processes"));
    }

    private final Process process;
    private OutputLines lines;

    private ChildProcess(Process process) {
        this.process = process;
    }

    /**
     * Starts the process the builder describes (its command, environment and redirections are the caller's
     * choice) and registers it to be killed when this JVM exits.
     */
    public static ChildProcess start(ProcessBuilder builder) throws IOException {
        ChildProcess child = new ChildProcess(builder.start());
        LIVE.add(child);
        child.process.onExit().thenRun(() -> LIVE.remove(child));
        return child;
    }

    /** The underlying process, for its standard streams. */
    public Process process() {
        return process;
    }

    /**
     * The lines of the process's standard output, read from the moment of the first call. Not for a process
     * whose output was redirected to a file.
     */
    public synchronized OutputLines lines() {
        if (lines == null) {
            lines = new OutputLines(process.getInputStream(), "child-" + process.pid() + "-output");
        }
        return lines;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits up to {@code seconds} for the process to exit; returns whether it did. */
    public boolean waitFor(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS);
    }

    public int exitValue() {
        return process.exitValue();
    }

    /** CPU time the process has used so far, in nanoseconds; -1 when the system does not tell. */
    public long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /**
     * Closes the process's standard input (the children of the benchmarks stop when it ends), waits up to
     * {@code graceSeconds}, then kills it. Returns the exit code, or null when it had to be killed.
     */
    public Integer stop(long graceSeconds) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // Already gone: waitFor below says so.
        }
        return exitCodeOrKill(graceSeconds);
    }

    /**
     * Asks the process to end (SIGTERM, so its shutdown hooks run), waits up to {@code graceSeconds}, then kills
     * it. Returns the exit code, or null when it had to be killed.
     */
    public Integer terminate(long graceSeconds) {
        process.destroy();
        return exitCodeOrKill(graceSeconds);
    }

    private Integer exitCodeOrKill(long graceSeconds) {
        try {
            if (process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill();
        return null;
    }

    /** Kills the process and every process it started (SIGKILL), and waits a little for it to be gone. */
    public void kill() {
        killNow();
        try {
            process.waitFor(KILL_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(this);
    }

    private void killNow() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** Kills the process if it is still running. */
    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
        LIVE.remove(this);
    }

    private static void killAll() {
        for (ChildProcess child : new ArrayList<>(LIVE)) {
            child.killNow();
        }
    }
}
