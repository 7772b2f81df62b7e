/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.benchmarks.core.ChildProcess;
import io.github.nettyucx.benchmarks.core.JavaCommand;
import io.github.nettyucx.benchmarks.core.OutputLines;
import io.github.nettyucx.benchmarks.core.ResultColumns;
import io.github.nettyucx.benchmarks.core.ResultRow;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One framework on one transport in one run: a server JVM, then a client JVM against it; the client's result rows,
 * each completed with the server's CPU time in its window. The JVMs' standard error goes to log files.
 */
final class PairRun {
    private static final long START_TIMEOUT_SECONDS = 60;
    /** Beyond the client's own schedule: JVM start, connects, a slow shutdown. */
    private static final long CLIENT_SLACK_SECONDS = 120;

    private final Framework framework;
    private final BenchTransport transport;
    private final int run;
    private final IntegrationBenchmark.Settings settings;

    PairRun(Framework framework, BenchTransport transport, int run, IntegrationBenchmark.Settings settings) {
        this.framework = framework;
        this.transport = transport;
        this.run = run;
        this.settings = settings;
    }

    List<ResultRow> execute() throws IOException, InterruptedException {
        String name = framework.id() + "-" + transport.id() + "-run" + run;
        try (ChildProcess server = start(ServerMain.class, List.of(framework.id(), transport.id()),
                settings.serverCpus, settings.logs.resolve(name + "-server.log"))) {
            String portLine;
            try {
                portLine = server.lines().awaitPrefix(ServerMain.PORT_LINE, START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                portLine = null;
            }
            if (portLine == null) {
                return failed("the server did not start; see " + settings.logs.resolve(name + "-server.log"));
            }
            int port = Integer.parseInt(portLine.substring(ServerMain.PORT_LINE.length()).trim());
            List<String> args = List.of(framework.id(), transport.id(), String.valueOf(port), "--run=" + run,
                    "--warmup=" + settings.warmup, "--measure=" + settings.measure);
            try (ChildProcess client = start(ClientMain.class, args, settings.clientCpus,
                    settings.logs.resolve(name + "-client.log"))) {
                List<ResultRow> rows = collect(client.lines(), server, clientSeconds());
                server.stop(10);
                return rows;
            }
        }
    }

    private long clientSeconds() {
        int scenarios = framework.scenarios().size();
        return (long) (settings.warmup + scenarios * (settings.measure + 1)) + CLIENT_SLACK_SECONDS;
    }

    /** Starts a JVM, on the given CPUs (a taskset list) when {@code cpus} is not null. */
    private ChildProcess start(Class<?> main, List<String> args, String cpus, Path log) throws IOException {
        List<String> jvm = new ArrayList<>(settings.jvmOptions);
        jvm.addAll(transport.jvmOptions());
        jvm.addAll(framework.jvmOptions(transport));
        List<String> command = new ArrayList<>();
        if (cpus != null) {
            command.addAll(List.of("taskset", "-c", cpus));
        }
        command.addAll(JavaCommand.of(main).jvmOptions(jvm).args(args).toList());
        ProcessBuilder pb = new ProcessBuilder(command);
        Files.createDirectories(log.getParent());
        pb.redirectError(log.toFile());
        return ChildProcess.start(pb);
    }

    private List<ResultRow> collect(OutputLines lines, ChildProcess server, long seconds)
            throws InterruptedException {
        List<ResultRow> rows = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long serverCpuAtBegin = 0;
        long serverCpu = 0;
        while (true) {
            String line;
            try {
                line = lines.next(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                rows.add(failedRow("the client did not finish within " + seconds + " s"));
                return rows;
            }
            if (line == null) {
                return rows;
            }
            if (line.equals(Results.WINDOW_BEGIN)) {
                serverCpuAtBegin = server.cpuNanos();
            } else if (line.equals(Results.WINDOW_END)) {
                serverCpu = server.cpuNanos() - serverCpuAtBegin;
            } else if (ResultRow.isLine(line)) {
                rows.add(withCpu(Results.COLUMNS.fromLine(line), serverCpu));
            }
        }
    }

    /** Adds the server's CPU time in the window, and both JVMs' CPU per call (or per MB of a stream). */
    private ResultRow withCpu(ResultRow row, long serverCpuNanos) {
        if (!row.ok()) {
            return row;
        }
        double cpuMillis = row.number(Results.CLIENT_CPU_MS) + serverCpuNanos / 1e6;
        row.put(Results.SERVER_CPU_MS, serverCpuNanos / 1e6);
        row.put(Results.CPU_PERCENT, cpuMillis / (settings.measure * 1000) * 100);
        double ops = Double.isNaN(row.number(Results.CALLS)) ? row.number(Results.MB_PER_S) * settings.measure
                : row.number(Results.CALLS);
        if (ops > 0) {
            row.put(Results.CPU_US_PER_OP, cpuMillis * 1000 / ops);
        }
        return row;
    }

    private List<ResultRow> failed(String why) {
        List<ResultRow> rows = new ArrayList<>();
        rows.add(failedRow(why));
        return rows;
    }

    private ResultRow failedRow(String why) {
        return Results.COLUMNS.newRow().put(Results.FRAMEWORK, framework.id()).put(Results.TRANSPORT, transport.id())
                .put(Results.RUN, run).put(ResultColumns.STATUS, "failed").put(Results.ERROR, why);
    }
}
