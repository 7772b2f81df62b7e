/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.benchmarks.core.MachineFacts;
import io.github.nettyucx.benchmarks.core.Neighbours;
import io.github.nettyucx.benchmarks.core.ResultRow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The framework benchmark: for each run, each framework and each transport (their order alternating between runs),
 * a server JVM and a client JVM on this host ({@link PairRun}); then the results as CSV, Markdown and charts
 * ({@link IntegrationReport}). Run by {@code bin/bench-integrations}; progress goes to standard error.
 */
@Command(name = "bin/bench frameworks", mixinStandardHelpOptions = true,
        description = "Each framework's own client against its own server, UCX next to epoll in the same run.")
public final class IntegrationBenchmark implements Callable<Integer> {
    @Option(names = "--frameworks", split = ",", description = "default: all (${DEFAULT-VALUE})")
    private List<String> frameworks = new ArrayList<>(Frameworks.IDS);

    @Option(names = "--transports", split = ",", description = "ucx, epoll, nio, io_uring; UCX with other settings "
            + "(io.github.nettyucx.benchmarks.core.UcxVariant): ucx-spin, ucx-sleep, ucx-noslice, ... "
            + "(default: ${DEFAULT-VALUE})")
    private List<String> transports = new ArrayList<>(List.of("ucx", "epoll"));

    @Option(names = "--runs", description = "runs, each with every framework and transport (default: ${DEFAULT-VALUE})")
    private int runs = 5;

    @Option(names = "--warmup", description = "seconds of warm-up per client JVM (default: ${DEFAULT-VALUE})")
    private double warmup = 10;

    @Option(names = "--measure", description = "seconds each scenario is measured (default: ${DEFAULT-VALUE})")
    private double measure = 5;

    @Option(names = "--quick", description = "one run, 3 s warm-up, 2 s windows: to try the command, not a result")
    private boolean quick;

    @Option(names = "--out", description = "where the results go (default: ${DEFAULT-VALUE})")
    private Path out = Paths.get("docs/integrations");

    @Option(names = "--logs", description = "where the JVMs' logs go (default: ${DEFAULT-VALUE})")
    private Path logs = Paths.get("benchmarks/frameworks/target/logs");

    @Option(names = "--jvm-option", description = "an option for every server and client JVM (repeatable)")
    private List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--cpus", description = "SERVER:CLIENT CPU lists for taskset, e.g. 0:1 (each JVM its own core) "
            + "or 0:0 (both on one core); default: wherever the scheduler puts them")
    private String cpus;

    @Option(names = "--neighbours", description = "what runs beside the benchmark: none, busy:N (N busy processes), "
            + "jvm (a busy third JVM), quota:C (every JVM of the benchmark in a cgroup of C CPUs; root) "
            + "(default: ${DEFAULT-VALUE})")
    private String neighbours = "none";

    @Option(names = "--charts-only", description = "draw the charts of the results.csv in --out again; measure nothing")
    private boolean chartsOnly;

    public static void main(String[] args) {
        System.exit(new CommandLine(new IntegrationBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (chartsOnly) {
            List<ResultRow> rows = IntegrationReport.readCsv(out.resolve("results.csv"));
            int lastRun = rows.stream().mapToInt(r -> r.integer(Results.RUN)).max().orElse(1);
            Settings drawn = new Settings(lastRun, warmup, measure, logs, jvmOptions, null);
            new IntegrationReport(rows, Map.of(), drawn, "", null, "", "", "").writeCharts(out);
            return 0;
        }
        Settings settings = quick ? new Settings(1, 3, 2, logs, jvmOptions, cpus)
                : new Settings(runs, warmup, measure, logs, jvmOptions, cpus);
        List<BenchTransport> available = new ArrayList<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        for (String name : transports) {
            BenchTransport t = BenchTransport.of(name);
            String why = t.unavailabilityReason();
            if (why == null) {
                available.add(t);
            } else {
                skipped.put(t.id(), why);
                System.err.println("skipping " + t.id() + ": not available here: " + why);
            }
        }
        List<Framework> chosen = new ArrayList<>();
        for (String id : frameworks) {
            chosen.add(Frameworks.of(id.trim()));
        }
        Neighbours beside = Neighbours.start(neighbours);
        try {
            return measure(settings, available, skipped, chosen, beside);
        } finally {
            beside.close();
        }
    }

    private int measure(Settings settings, List<BenchTransport> available, Map<String, String> skipped,
                        List<Framework> chosen, Neighbours beside) throws Exception {
        System.err.println("beside the benchmark: " + beside.describe());
        String loadBefore = MachineFacts.loadAverage();
        ZonedDateTime started = ZonedDateTime.now();
        List<ResultRow> rows = new ArrayList<>();
        int total = settings.runs * (int) chosen.stream()
                .mapToLong(f -> available.stream().filter(f::supports).count()).sum();
        int done = 0;
        for (int run = 1; run <= settings.runs; run++) {
            for (Framework f : chosen) {
                List<BenchTransport> order = new ArrayList<>();
                available.stream().filter(f::supports).forEach(order::add);
                if (run % 2 == 0) {
                    Collections.reverse(order);
                }
                for (BenchTransport t : order) {
                    done++;
                    System.err.printf(Locale.ROOT, "[%d/%d] run %d: %s on %s (%d scenarios, %s s each, %s s warm-up)%n",
                            done, total, run, f.id(), t.id(), f.scenarios().size(), settings.measure, settings.warmup);
                    List<ResultRow> pair = new PairRun(f, t, run, settings).execute();
                    pair.stream().filter(r -> !r.ok()).forEach(r -> System.err.println("  failed: " + r));
                    rows.addAll(pair);
                }
            }
        }
        String command = System.getProperty("bench.command", "IntegrationBenchmark");
        new IntegrationReport(rows, skipped, settings, command, started, loadBefore, MachineFacts.loadAverage(),
                beside.describe()).write(out);
        System.err.println("results: " + out.resolve("results.md"));
        return rows.stream().allMatch(ResultRow::ok) ? 0 : 1;
    }

    /** What one invocation measures. */
    static final class Settings {
        final int runs;
        final double warmup;
        final double measure;
        final Path logs;
        final List<String> jvmOptions;
        /** The CPUs (taskset lists) of the server and the client JVM, or null to leave them to the scheduler. */
        final String serverCpus;
        final String clientCpus;

        Settings(int runs, double warmup, double measure, Path logs, List<String> jvmOptions, String cpus) {
            this.runs = runs;
            this.warmup = warmup;
            this.measure = measure;
            this.logs = logs;
            this.jvmOptions = List.copyOf(jvmOptions);
            if (cpus == null) {
                serverCpus = null;
                clientCpus = null;
            } else {
                String[] both = cpus.split(":", -1);
                if (both.length != 2 || both[0].isEmpty() || both[1].isEmpty()) {
                    throw new IllegalArgumentException("--cpus takes SERVER:CLIENT taskset CPU lists, e.g. 0:1, not "
                            + cpus);
                }
                serverCpus = both[0];
                clientCpus = both[1];
            }
        }
    }
}
