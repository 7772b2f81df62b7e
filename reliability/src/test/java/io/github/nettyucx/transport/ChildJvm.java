/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A child JVM running a main class of the test class path (usually {@link ReliabilityPeer}), optionally behind
 * a command prefix (e.g. {@code ip netns exec NAME}) and with extra environment variables. Its output lines are
 * collected; it can be sent SIGKILL, SIGSTOP and SIGCONT, and commands on its standard input. It is always
 * killed on {@link #close()}.
 */
final class ChildJvm implements AutoCloseable {
    private static final int KEPT_OUTPUT_CHARS = 256 * 1024;
    private final Process process;
    private final String name;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer output = new StringBuffer();
    private final Thread reader;

    private ChildJvm(Process process, String name) {
        this.process = process;
        this.name = name;
        reader = new Thread(this::collectOutput, name + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} with {@code args}; see {@link Builder} for prefixes and environment. */
    static ChildJvm start(Class<?> mainClass, String... args) throws IOException {
        return builder(mainClass).args(args).start();
    }

    static Builder builder(Class<?> mainClass) {
        return new Builder(mainClass);
    }

    static final class Builder {
        private final Class<?> mainClass;
        private final List<String> prefix = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private final List<String> args = new ArrayList<>();
        private final Map<String, String> env = new java.util.HashMap<>();
        private String name;

        private Builder(Class<?> mainClass) {
            this.mainClass = mainClass;
            this.name = mainClass.getSimpleName();
        }

        /** A command the JVM runs under, such as {@code ip netns exec ns1} or {@code unshare -i}. */
        Builder prefix(String... command) {
            prefix.addAll(List.of(command));
            return this;
        }

        Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        Builder env(String variable, String value) {
            env.put(variable, value);
            return this;
        }

        Builder args(String... values) {
            args.addAll(List.of(values));
            return this;
        }

        Builder name(String value) {
            name = value;
            return this;
        }

        ChildJvm start() throws IOException {
            String java = ProcessHandle.current().info().command()
                    .orElseThrow(() -> new IllegalStateException("cannot tell which java runs this JVM"));
            List<String> command = new ArrayList<>(prefix);
            command.add(java);
            command.add("-Xmx512m");
            command.add("-Dio.netty.leakDetection.level=disabled");
            // nettyucx.childJvmArgs: JVM options bin/test gives the tests' JVMs and their children (no C2).
            Arrays.stream(System.getProperty("nettyucx.childJvmArgs", "").split(" "))
                    .filter(option -> !option.isEmpty()).forEach(command::add);
            // The project's settings and the logging configuration (UCX_* variables are inherited).
            for (String property : System.getProperties().stringPropertyNames()) {
                if (property.startsWith("nettyucx.") || property.startsWith("io.github.nettyucx.")
                        || property.equals("logback.configurationFile") || property.equals("java.library.path")) {
                    command.add("-D" + property + '=' + System.getProperty(property));
                }
            }
            command.addAll(jvmOptions);
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(mainClass.getName());
            command.addAll(args);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(env);
            return new ChildJvm(builder.start(), name);
        }
    }

    private void collectOutput() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                if (output.length() < KEPT_OUTPUT_CHARS) {
                    output.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            // The process is gone.
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits up to {@code seconds} for an output line starting with {@code prefix}; returns the line. */
    String awaitLine(String prefix, long seconds) throws InterruptedException {
        String line = pollLine(prefix, seconds);
        if (line == null) {
            fail(name + " did not print '" + prefix + "' within " + seconds + " s"
                    + (process.isAlive() ? "" : " (exited with " + process.exitValue() + ")") + "; output:\n"
                    + output);
        }
        return line;
    }

    String awaitLine(String prefix) throws InterruptedException {
        return awaitLine(prefix, 60);
    }

    /** The rest of the line after {@code prefix}, trimmed. */
    String awaitValue(String prefix) throws InterruptedException {
        return awaitLine(prefix).substring(prefix.length()).trim();
    }

    /** Like {@link #awaitLine} but returns null instead of failing. Lines before the match are skipped. */
    String pollLine(String prefix, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(50, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line == null && !process.isAlive() && lines.isEmpty()) {
                return null;
            }
        }
        return null;
    }

    /** Waits up to {@code seconds} for {@code text} to appear anywhere in the output; returns whether it did. */
    boolean awaitOutput(String text, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!output.toString().contains(text)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Sends one command line to the child's standard input. */
    void send(String command) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** Sends SIGKILL and waits for the process to be gone; returns the time of the kill (nanoTime). */
    long kill() throws InterruptedException {
        long at = System.nanoTime();
        process.destroyForcibly();
        assertTrue(process.waitFor(10, TimeUnit.SECONDS), name + " did not exit after SIGKILL");
        return at;
    }

    /** Freezes the process (SIGSTOP). */
    void stop() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** Resumes a frozen process (SIGCONT). */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name + " failed");
    }

    /** Waits for the process to exit by itself; returns its exit code, or fails. Its whole output is read then. */
    int awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            fail(name + " did not exit within " + seconds + " s; output:\n" + output);
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    String output() {
        return output.toString();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly(); // SIGKILL also ends a stopped process
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
