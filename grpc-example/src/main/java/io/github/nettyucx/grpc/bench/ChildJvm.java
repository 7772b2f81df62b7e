/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A server or client JVM of the benchmark, on this JVM's class path. Standard error goes to ours (so its
 * warnings show); standard output is read line by line. No child outlives this JVM, even on Ctrl-C.
 */
final class ChildJvm implements AutoCloseable {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(ChildJvm::kill), "kill-bench-children"));
    }

    private final Process process;
    private final BufferedReader out;

    ChildJvm(Class<?> mainClass, List<String> jvmOptions, List<String> args) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        process = builder.start();
        LIVE.add(process);
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** The next line of standard output, or null at its end. */
    String readLine() throws IOException {
        return out.readLine();
    }

    /**
     * Closes its standard input (a {@link BenchServer} stops then), waits up to {@code seconds}, then kills it.
     * Returns the exit code, or null when it had to be killed.
     */
    Integer stop(long seconds) {
        try {
            process.getOutputStream().close();
            if (process.waitFor(seconds, TimeUnit.SECONDS)) {
                return process.exitValue();
            }
        } catch (IOException e) {
            // already gone
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        close();
        return null;
    }

    /** CPU time the JVM has used so far, in nanoseconds; -1 when the system does not tell. */
    long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
    }

    boolean waitFor(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS);
    }

    int exitValue() {
        return process.exitValue();
    }

    @Override
    public void close() {
        kill(process);
        LIVE.remove(process);
    }

    private static void kill(Process p) {
        if (p.isAlive()) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            try {
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
