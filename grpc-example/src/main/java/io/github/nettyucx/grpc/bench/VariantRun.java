/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/** One server JVM and one client JVM running every scenario for one transport and allocator. */
final class VariantRun {
    private static final List<String> JVM_OPTIONS = jvmOptions();

    private final GrpcBenchmark.Variant variant;
    private final GrpcBenchmark.Settings settings;
    private final int run;

    VariantRun(GrpcBenchmark.Variant variant, GrpcBenchmark.Settings settings, int run) {
        this.variant = variant;
        this.settings = settings;
        this.run = run;
    }

    List<Result> execute() throws Exception {
        List<Result> results = new ArrayList<>();
        try (ChildJvm server = new ChildJvm(BenchServer.class, JVM_OPTIONS, List.of("--transport",
                variant.transport.id(), "--allocator", variant.allocator, "--executor", settings.executor))) {
            int port = awaitPort(server);
            String scenarios = settings.scenarios.stream().map(Scenario::toString).collect(Collectors.joining(","));
            try (ChildJvm client = new ChildJvm(BenchClient.class, JVM_OPTIONS, List.of("--transport",
                    variant.transport.id(), "--allocator", variant.allocator, "--executor", settings.executor,
                    "--port", String.valueOf(port), "--scenarios", scenarios,
                    "--warmup", String.valueOf(settings.warmup), "--measure", String.valueOf(settings.measure),
                    "--run", String.valueOf(run)))) {
                CpuWindow cpu = new CpuWindow(client, server);
                String line;
                while ((line = client.readLine()) != null) {
                    if (line.equals(MeasurementWindow.START)) {
                        cpu.start();
                    } else if (line.equals(MeasurementWindow.END)) {
                        cpu.end();
                    } else if (line.startsWith("RESULT\t")) {
                        Result r = Result.fromLine(line);
                        cpu.attachTo(r);
                        results.add(r);
                        System.err.println("    " + summary(r));
                    }
                }
                if (!client.waitFor(30) || client.exitValue() != 0) {
                    results.add(failure("the client JVM " + (client.waitFor(0) ? "exited with " + client.exitValue()
                            : "did not exit") + " after " + results.size() + " of " + settings.scenarios.size()
                            + " scenarios"));
                }
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

    /**
     * Fixed heap, plus the transport's, gRPC's and Netty's system properties given to the coordinator
     * (BENCH_JAVA_OPTS), so that e.g. {@code -Dio.github.nettyucx.waitStrategy=busy_poll} reaches both JVMs.
     */
    static List<String> jvmOptions() {
        List<String> options = new ArrayList<>(List.of("-Xms1g", "-Xmx1g"));
        options.addAll(forwardedProperties());
        return options;
    }

    static List<String> forwardedProperties() {
        List<String> forwarded = new ArrayList<>();
        for (String name : new java.util.TreeSet<>(System.getProperties().stringPropertyNames())) {
            if (name.startsWith("io.github.nettyucx.") || name.startsWith("io.grpc.") || name.startsWith("io.netty.")) {
                forwarded.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        return forwarded;
    }

    private static int awaitPort(ChildJvm server) throws Exception {
        CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = server.readLine()) != null) {
                    if (line.startsWith("LISTENING ")) {
                        return Integer.parseInt(line.substring("LISTENING ".length()).trim());
                    }
                }
                throw new IllegalStateException("the server JVM ended without listening (its errors are above)");
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        });
        return port.get(60, TimeUnit.SECONDS);
    }

    private Result failure(String note) {
        System.err.println("    FAILED: " + note);
        return new Result().put("transport", variant.transport.id()).put("allocator", variant.allocator)
                .put("benchmark", "run").put("run", run).put("status", "failed").put("note", note);
    }

    private static String summary(Result r) {
        String scenario = r.get("benchmark").equals("unary")
                ? "unary " + Scenario.sizeLabel((long) r.number("size_bytes")) + " x" + r.get("concurrency")
                : "stream " + Scenario.sizeLabel((long) r.number("size_bytes"));
        if (!r.ok()) {
            return scenario + ": FAILED " + r.get("note");
        }
        if (r.get("benchmark").equals("unary")) {
            return String.format(Locale.ROOT, "%-20s p50 %8.1f µs  p99 %8.1f µs  p99.9 %8.1f µs  %9.0f calls/s%s",
                    scenario, r.number("p50_us"), r.number("p99_us"), r.number("p999_us"), r.number("calls_per_s"),
                    cpu(r));
        }
        return String.format(Locale.ROOT, "%-20s %9.0f msgs/s  %8.1f MB/s%s", scenario, r.number("msgs_per_s"),
                r.number("mb_per_s"), cpu(r));
    }

    private static String cpu(Result r) {
        if (r.get("client_cpu_percent").isEmpty() || r.get("server_cpu_percent").isEmpty()) {
            return "";
        }
        return String.format(Locale.ROOT, "  CPU client %.0f%% server %.0f%%", r.number("client_cpu_percent"),
                r.number("server_cpu_percent"));
    }
}
