/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** JVMs started with this JVM's class path; all are destroyed when this JVM exits, however it exits. */
final class ChildJvm {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(ChildJvm::stop), "bench-children"));
    }

    private ChildJvm() {
    }

    static Process start(List<String> jvmOptions, String mainClass, List<String> args, File output) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output).start();
        LIVE.add(p);
        return p;
    }

    /** Waits for the process to end (up to the bound) and returns its output. */
    static String finish(Process p, File output, long timeoutSeconds) throws IOException, InterruptedException {
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            stop(p);
            throw new IOException("child did not finish within " + timeoutSeconds + " s: "
                    + new String(Files.readAllBytes(output.toPath()), StandardCharsets.UTF_8));
        }
        LIVE.remove(p);
        return new String(Files.readAllBytes(output.toPath()), StandardCharsets.UTF_8);
    }

    static void stop(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        LIVE.remove(p);
    }
}
