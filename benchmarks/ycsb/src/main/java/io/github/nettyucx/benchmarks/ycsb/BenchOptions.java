/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.benchmarks.core.Neighbours;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Command line of {@link YcsbBenchmark}. The options are setters, which picocli calls in the order they are given,
 * so that --quick and --full set defaults that later options override.
 */
@Command(name = "bin/bench ycsb", mixinStandardHelpOptions = true,
        description = "YCSB over kvstore: YCSB's own client against a kvstore server, each transport in turn.",
        footer = {"",
            "--runs R repeats every workload, thread count and transport R times; transports alternate (odd runs in "
                + "the given order, even runs reversed) and results.md gives min/median/max over the runs and each "
                + "run's ratio to epoll, e.g. for the issue's target:",
            "  --workloads a,c --threads 4 --transports ucx,ucx-spin,epoll --runs 5 --seconds 20",
            "Transports: ucx (the transport's default wait strategy), epoll, io_uring, nio, ucx-tcp, and "
                + "ucx-<wait strategy> for UCX with -Dio.github.nettyucx.waitStrategy set in server and client: "
                + "ucx-spin (spin_then_sleep), ucx-sleep, ucx-busy_poll, ucx-adaptive."})
final class BenchOptions {
    List<String> workloads = new ArrayList<>(Arrays.asList("a", "c"));
    List<Integer> threads = new ArrayList<>(List.of(4));
    /** ucx-sleep: UCX with event loops that sleep at once when idle instead of spinning first. */
    List<String> transports = new ArrayList<>(Arrays.asList("ucx", "ucx-sleep", "epoll", "nio"));
    int seconds = 10;
    int records = 10_000;
    int runs = 1;
    int serverThreads = 1;
    /** What runs beside the benchmark ({@code io.github.nettyucx.benchmarks.core.Neighbours}). */
    String neighbours = "none";
    String mode = "quick";
    /** Extra YCSB properties (-p name=value) for every client run. */
    List<String> ycsbProperties = new ArrayList<>();
    Path out = Paths.get("docs", "ycsb");
    Path workloadDir = Paths.get("ycsb-binding", "workloads");

    @Spec
    private CommandSpec spec;

    /** Seconds at the start of a run left out of the steady-state throughput (JIT warm-up of a fresh JVM). */
    long warmupSeconds() {
        return Math.min(5, seconds / 2);
    }

    /**
     * The transports in the order run {@code run} (from 1) measures them: odd runs in the given order, even runs
     * reversed, so that no transport always goes first (fresh page cache, cool CPUs) or always follows the same
     * neighbour.
     */
    List<String> transportsInRun(int run) {
        List<String> order = new ArrayList<>(transports);
        if (run % 2 == 0) {
            Collections.reverse(order);
        }
        return order;
    }

    /** The options in {@code args}; a wrong or unknown one is an {@link IllegalArgumentException}. */
    static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
        try {
            new CommandLine(o).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return o;
    }

    @Option(names = "--quick", description = "(default) workloads A and C, 4 threads, 10 s per run, 1 run: "
            + "about 2-3 minutes")
    void quick(boolean on) {
        mode = "quick";
        threads = new ArrayList<>(List.of(4));
        seconds = 10;
    }

    @Option(names = "--full", description = "workloads A and C, 1/4/16 threads, 30 s per run, 1 run: about 15 minutes")
    void full(boolean on) {
        mode = "full";
        threads = new ArrayList<>(List.of(1, 4, 16));
        seconds = 30;
    }

    @Option(names = "--workloads", split = ",", paramLabel = "a,c", description = "YCSB core workloads (a-f)")
    void workloads(List<String> names) {
        workloads = new ArrayList<>();
        for (String w : names) {
            workloads.add(w.trim().toLowerCase().replace("workload", ""));
        }
    }

    @Option(names = "--threads", split = ",", paramLabel = "1,4,16", description = "YCSB client thread counts")
    void threads(List<Integer> counts) {
        threads = new ArrayList<>(counts);
    }

    @Option(names = "--transports", split = ",", paramLabel = "ucx,ucx-sleep,epoll,nio",
            description = "in the order odd runs measure them")
    void transports(List<String> names) {
        transports = new ArrayList<>(names);
    }

    @Option(names = "--seconds", paramLabel = "S", description = "length of each YCSB run")
    void seconds(int value) {
        seconds = value;
    }

    @Option(names = "--records", paramLabel = "N", description = "records loaded before the runs")
    void records(int value) {
        records = value;
    }

    @Option(names = "--runs", paramLabel = "R", description = "repeats of everything (see below)")
    void runs(int value) {
        if (value < 1) {
            throw new ParameterException(spec.commandLine(), "--runs needs at least 1, got " + value);
        }
        runs = value;
    }

    @Option(names = "--server-threads", paramLabel = "N", description = "event loop threads of the kvstore server")
    void serverThreads(int value) {
        serverThreads = value;
    }

    @Option(names = "--neighbours", paramLabel = "none|busy:N|jvm|quota:C",
            description = "what runs beside the benchmark from its first server to its end: busy:N busy processes, "
                    + "jvm a busy third JVM, quota:C every JVM of the benchmark in a cgroup of C CPUs (root)")
    void neighbours(String value) {
        try {
            Neighbours.check(value);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, value);
        }
        neighbours = value;
    }

    @Option(names = "-p", paramLabel = "name=value",
            description = "passed to every YCSB client run, e.g. -p kvstore.connections=1 (repeatable)")
    void ycsbProperties(List<String> properties) {
        for (String prop : properties) {
            if (prop.indexOf('=') <= 0) {
                throw new ParameterException(spec.commandLine(), "-p needs name=value, got " + prop);
            }
        }
        ycsbProperties = new ArrayList<>(properties);
    }

    @Option(names = "--out", paramLabel = "DIR", description = "where the results go (default docs/ycsb)")
    void out(Path dir) {
        out = dir;
    }

    @Option(names = "--workload-dir", paramLabel = "DIR", description = "the workload files "
            + "(default ycsb-binding/workloads)")
    void workloadDir(Path dir) {
        workloadDir = dir;
    }
}
