/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An application run in a JVM of its own, as a user runs it: its classes and one Netty release's jars on the class
 * path (no netty-ucx there), with or without {@code -javaagent}. The run's output and, under the agent, the report the
 * agent writes at exit ({@code metricsFile}) are what the tests read.
 */
final class AppJvm {
    /** A run's exit status, its output (stderr too) and the agent's report (empty without one). */
    static final class Run {
        final int exit;
        final String output;
        final Properties report;

        Run(int exit, String output, Properties report) {
            this.exit = exit;
            this.output = output;
            this.report = report;
        }

        /** The lines the application printed for its results (the log lines and the JVM's own left out). */
        List<String> results() {
            return output.lines().filter(l -> l.matches("^[A-Za-z_(), ]+: .*|^done$"))
                    .filter(l -> !l.startsWith("INFO: ") && !l.startsWith("WARNING: ") && !l.startsWith("FINE"))
                    .collect(Collectors.toList());
        }

        long count(String text) {
            return output.lines().filter(l -> l.contains(text)).count();
        }

        long reported(String key) {
            String v = report.getProperty(key);
            if (v == null) {
                throw new AssertionError("the agent's report has no " + key + ": " + report + "\n" + output);
            }
            return Long.parseLong(v);
        }
    }

    private AppJvm() {
    }

    static Path agentJar() {
        return Paths.get(System.getProperty("agent.jar"));
    }

    static String newestNetty() {
        return System.getProperty("agent.newestNetty");
    }

    static String oldestNetty() {
        return System.getProperty("agent.oldestNetty");
    }

    static String netty41() {
        return System.getProperty("agent.netty41");
    }

    /**
     * Runs {@code main} on {@code nettyRelease}'s jars, under the agent with {@code agentArgs} unless they are
     * {@code null}, and waits for it (at most two minutes, then it is killed and the test fails).
     */
    static Run run(String nettyRelease, String agentArgs, Map<String, String> env, Class<?> main, String... args)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("agent-run");
        Path report = dir.resolve("report.properties");
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-Dio.netty.leakDetection.level=paranoid");
        // nettyucx.childJvmArgs: JVM options bin/test gives the tests' JVMs and their children (no C2).
        Arrays.stream(System.getProperty("nettyucx.childJvmArgs", "").split(" "))
                .filter(option -> !option.isEmpty()).forEach(command::add);
        if (agentArgs != null) {
            String reportArg = "metricsFile=" + report;
            command.add("-javaagent:" + agentJar() + "=" + (agentArgs.isEmpty() ? reportArg : agentArgs + ","
                    + reportArg));
        }
        command.add("-cp");
        command.add(classPath(nettyRelease));
        command.add(main.getName());
        command.addAll(Arrays.asList(args));
        Path out = dir.resolve("output.txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("the application did not finish within two minutes:\n" + read(out));
        }
        Properties properties = new Properties();
        if (Files.exists(report)) {
            try (var in = Files.newBufferedReader(report, StandardCharsets.UTF_8)) {
                properties.load(in);
            }
        }
        Run run = new Run(process.exitValue(), read(out), properties);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.collect(Collectors.toList())) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
        return run;
    }

    private static String classPath(String nettyRelease) throws IOException {
        Path jars = Paths.get(System.getProperty("agent.nettyDir"), nettyRelease);
        try (Stream<Path> files = Files.list(jars)) {
            String netty = files.map(Path::toString).filter(f -> f.endsWith(".jar")).sorted()
                    .collect(Collectors.joining(File.pathSeparator));
            if (netty.isEmpty()) {
                throw new AssertionError("no Netty jars in " + jars);
            }
            // The test classes hold the applications; they refer to nothing of netty-ucx.
            return System.getProperty("agent.appClasses") + File.pathSeparator + netty;
        }
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
    }
}
