/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Starts child processes and makes sure none outlives this JVM (timeouts, Ctrl-C). */
final class Children {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Children::killAll, "kill-children"));
    }

    private Children() {
    }

    /** A JVM running {@link SystemBenchmark} with the given arguments and this JVM's class path. */
    static Process startJava(List<String> jvmOptions, List<String> args, Map<String, String> env,
                             boolean inheritStderr) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        // Transport settings given to the coordinator (for example the wait strategy) apply to both ends.
        System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith("io.github.nettyucx."))
                .sorted()
                .forEach(name -> command.add("-D" + name + "=" + System.getProperty(name)));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SystemBenchmark.class.getName());
        command.addAll(args);
        return start(command, env, inheritStderr);
    }

    static Process start(List<String> command, Map<String, String> env, boolean inheritStderr) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        if (inheritStderr) {
            builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        } else {
            builder.redirectErrorStream(true);
        }
        Process p = builder.start();
        LIVE.add(p);
        p.onExit().thenRun(() -> LIVE.remove(p));
        return p;
    }

    /** Kills a child and everything it started. */
    static void kill(Process p) {
        if (p == null) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(p);
    }

    /** Closes the child's standard input, waits a little for it to exit, then kills it. */
    static void finish(Process p, long waitSeconds) {
        if (p == null) {
            return;
        }
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // already gone
        }
        try {
            if (p.waitFor(waitSeconds, TimeUnit.SECONDS)) {
                LIVE.remove(p);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill(p);
    }

    static void killAll() {
        for (Process p : new ArrayList<>(LIVE)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
