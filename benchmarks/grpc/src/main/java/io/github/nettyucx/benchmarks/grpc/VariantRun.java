/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.ChildProcess;
import io.github.nettyucx.benchmarks.core.JavaCommand;
import io.github.nettyucx.benchmarks.core.ResultRow;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/** One server JVM and one client JVM running a variant's warm-up and scenarios. */
final class VariantRun {
    /** Fixed heap, so that GC sizing does not differ between transports. */
    private static final List<String> JVM_OPTIONS = List.of("-Xms1g", "-Xmx1g");
    /** How long the client may take per scenario beyond its ramp and measurement before it counts as hung. */
    private static final long SCENARIO_SLACK_SECONDS = 60;

    private final GrpcBenchmark.Variant variant;
    private final GrpcBenchmark.Settings settings;
    private final int run;

    VariantRun(GrpcBenchmark.Variant variant, GrpcBenchmark.Settings settings, int run) {
        this.variant = variant;
        this.settings = settings;
        this.run = run;
    }

    List<ResultRow> execute() throws Exception {
        List<ResultRow> results = new ArrayList<>();
        try (ChildProcess server = start(BenchServer.class, List.of("--transport", variant.transport.id(),
                "--allocator", variant.allocator, "--executor", variant.executor.id()))) {
            int port = awaitPort(server);
            String scenarios = variant.scenarios.stream().map(Scenario::toString).collect(Collectors.joining(","));
            try (ChildProcess client = start(BenchClient.class, List.of("--transport", variant.transport.id(),
                    "--allocator", variant.allocator, "--executor", variant.executor.id(),
                    "--port", String.valueOf(port), "--scenarios", scenarios,
                    "--warmup", String.valueOf(settings.warmup), "--warmup-max", String.valueOf(settings.warmupMax),
                    "--ramp", String.valueOf(settings.ramp), "--measure", String.valueOf(settings.measure),
                    "--run", String.valueOf(run)))) {
                CpuWindow cpu = new CpuWindow(client, server);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(clientTimeLimitSeconds());
                String line;
                while ((line = client.lines().next(Math.max(0, deadline - System.nanoTime()),
                        TimeUnit.NANOSECONDS)) != null) {
                    if (line.equals(MeasurementWindow.START)) {
                        cpu.start();
                    } else if (line.equals(MeasurementWindow.END)) {
                        cpu.end();
                    } else if (ResultRow.isLine(line)) {
                        ResultRow r = GrpcResults.COLUMNS.fromLine(line);
                        cpu.attachTo(r);
                        results.add(r);
                        System.err.println("    " + summary(r));
                    }
                }
                if (!client.waitFor(30) || client.exitValue() != 0) {
                    results.add(failure("the client JVM " + (client.waitFor(0) ? "exited with " + client.exitValue()
                            : "did not exit") + " after " + results.size() + " of " + variant.scenarios.size()
                            + " scenarios"));
                }
            } catch (TimeoutException e) {
                results.add(failure("the client JVM did not finish within " + clientTimeLimitSeconds() + " s, after "
                        + results.size() + " of " + variant.scenarios.size() + " scenarios; killed"));
            }
            Integer exit = server.stop(10);
            if (exit == null || exit != 0) {
                // After the measurements, so they stand; but a server that cannot stop cleanly is a finding.
                results.add(failure("the server JVM " + (exit == null ? "did not stop within 10 s" : "exited with "
                        + exit) + " when told to stop, after every scenario had been measured"));
            }
        } catch (TimeoutException e) {
            results.add(failure("the server JVM printed no port within 60 s"));
        }
        return results;
    }

    private long clientTimeLimitSeconds() {
        return (long) (settings.warmupMax + SCENARIO_SLACK_SECONDS
                + variant.scenarios.size() * (settings.ramp + settings.measure + SCENARIO_SLACK_SECONDS));
    }

    /**
     * A server or client JVM of this class path. Standard error goes to ours (so its warnings show); standard
     * output carries its port or results. The transport's environment ({@code UCX_TLS=tcp} for ucx-tcp) is set.
     */
    private ChildProcess start(Class<?> mainClass, List<String> args) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(javaCommand(mainClass).jvmOptions(JVM_OPTIONS).args(args)
                .toList()).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(variant.transport.environment());
        return ChildProcess.start(builder);
    }

    /**
     * Besides the transport's settings, gRPC's and Netty's system properties given to the coordinator
     * (BENCH_JAVA_OPTS) reach both JVMs, e.g. {@code -Dio.github.nettyucx.waitStrategy=busy_poll}.
     */
    private static JavaCommand javaCommand(Class<?> mainClass) {
        return JavaCommand.of(mainClass).forwardProperties("io.grpc.").forwardProperties("io.netty.");
    }

    /** The {@code -D} options every child JVM gets from the coordinator, for the report. */
    static List<String> forwardedProperties() {
        return javaCommand(BenchServer.class).forwardedProperties();
    }

    private static int awaitPort(ChildProcess server) throws Exception {
        String line = server.lines().awaitPrefix(BenchServer.LISTENING, 60, TimeUnit.SECONDS);
        if (line == null) {
            throw new IllegalStateException("the server JVM ended without listening (its errors are above)");
        }
        return Integer.parseInt(line.substring(BenchServer.LISTENING.length()).trim());
    }

    private ResultRow failure(String note) {
        System.err.println("    FAILED: " + note);
        return GrpcResults.COLUMNS.newRow().put("transport", variant.transport.id())
                .put("allocator", variant.allocator).put("executor", variant.executor.id()).put("benchmark", "run")
                .put("run", run).put("status", "failed").put("note", note);
    }

    private static String summary(ResultRow r) {
        String scenario = Scenario.label(r.get("benchmark"), (long) r.number("size_bytes"), r.integer("concurrency"));
        if (!r.ok()) {
            return scenario + ": FAILED " + r.get("note");
        }
        if (r.get("benchmark").equals(Scenario.Kind.STREAM.id)) {
            return String.format(Locale.ROOT, "%-28s %9.0f msgs/s  %8.1f MB/s%s", scenario, r.number("msgs_per_s"),
                    r.number("mb_per_s"), cpu(r, "msg"));
        }
        return String.format(Locale.ROOT, "%-28s p50 %8.1f µs  p99 %8.1f µs  p99.9 %8.1f µs  %9.0f calls/s%s",
                scenario, r.number("p50_us"), r.number("p99_us"), r.number("p999_us"), r.number("calls_per_s"),
                cpu(r, "call"));
    }

    private static String cpu(ResultRow r, String op) {
        if (r.get("client_cpu_us_per_op").isEmpty() || r.get("server_cpu_us_per_op").isEmpty()) {
            return "";
        }
        return String.format(Locale.ROOT, "  CPU µs/%s client %.1f server %.1f (%.0f%% / %.0f%%)", op,
                r.number("client_cpu_us_per_op"), r.number("server_cpu_us_per_op"), r.number("client_cpu_percent"),
                r.number("server_cpu_percent"));
    }
}
