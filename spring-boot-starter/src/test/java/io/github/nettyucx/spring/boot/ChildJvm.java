/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started with this one's class path and a main class, whose output (standard error included) is read line by
 * line: a test waits for the line it needs and shows the whole output when something goes wrong.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer output = new StringBuffer();
    private final Thread reader;

    ChildJvm(Class<?> mainClass, String... args) throws IOException {
        this(Map.of(), mainClass, args);
    }

    /** A JVM whose environment is this one's with {@code environment} added. */
    ChildJvm(Map<String, String> environment, Class<?> mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
        // nettyucx.childJvmArgs: JVM options bin/test gives the tests' JVMs and their children (no C2).
        Arrays.stream(System.getProperty("nettyucx.childJvmArgs", "").split(" "))
                .filter(option -> !option.isEmpty()).forEach(command::add);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        process = builder.start();
        reader = new Thread(this::read, "child-jvm-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** The rest of the first line that starts with {@code prefix}, waiting up to {@code seconds} for it. */
    String awaitLine(String prefix, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError("no line starting with " + prefix + " within " + seconds + " s (the JVM "
                        + (process.isAlive() ? "is running" : "exited with " + process.exitValue()) + "):\n" + output);
            }
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length());
            }
        }
    }

    String output() {
        return output.toString();
    }

    /** The JVM's exit status, waiting up to {@code seconds} for it to end; all of its output has been read then. */
    int awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the JVM did not exit within " + seconds + " s:\n" + output);
        }
        reader.join(TimeUnit.SECONDS.toMillis(seconds));
        return process.exitValue();
    }

    /** Asks the JVM to stop (its shutdown hooks run, Spring closes its context) and waits, then forces it. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private void read() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                output.append(line).append('\n');
                lines.add(line);
            }
        } catch (IOException e) {
            output.append("(reading the output failed: ").append(e).append(")\n");
        }
    }
}
