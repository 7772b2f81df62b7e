/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.benchmarks.core.Neighbours;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Command line of {@link YcsbBenchmark}; --quick and --full set defaults that later options override. */
final class BenchOptions {
    static final String USAGE = String.join("\n",
            "usage: bin/bench ycsb [--quick | --full] [--workloads a,c] [--threads 1,4,16]",
            "                      [--transports ucx,ucx-sleep,epoll,nio] [--seconds S] [--records N] [--runs R]",
            "                      [--server-threads N] [--neighbours none|busy:N|jvm|quota:C] [-p name=value ...]",
            "                      [--out DIR]",
            "  -p       passed to every YCSB client run, e.g. -p kvstore.connections=1",
            "  --neighbours  what runs beside the benchmark from its first server to its end: busy:N busy processes,",
            "           jvm a busy third JVM, quota:C every JVM of the benchmark in a cgroup of C CPUs (root)",
            "  --quick  (default) workloads A and C, 4 threads, 10 s per run, 1 run: about 2-3 minutes",
            "  --full   workloads A and C, 1/4/16 threads, 30 s per run, 1 run: about 15 minutes",
            "  --runs   repeats every workload, thread count and transport R times; transports alternate",
            "           (odd runs in the given order, even runs reversed) and results.md gives min/median/max",
            "           over the runs and each run's ratio to epoll, e.g. for the issue's target:",
            "           --workloads a,c --threads 4 --transports ucx,ucx-spin,epoll --runs 5 --seconds 20",
            "  transports: ucx (the transport's default wait strategy), epoll, io_uring, nio, ucx-tcp, and",
            "  ucx-<wait strategy> for UCX with -Dio.github.nettyucx.waitStrategy set in server and client:",
            "  ucx-spin (spin_then_sleep), ucx-sleep, ucx-busy_poll, ucx-adaptive");

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

    static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick":
                    o.mode = "quick";
                    o.threads = new ArrayList<>(List.of(4));
                    o.seconds = 10;
                    break;
                case "--full":
                    o.mode = "full";
                    o.threads = new ArrayList<>(List.of(1, 4, 16));
                    o.seconds = 30;
                    break;
                case "--workloads":
                    o.workloads = new ArrayList<>();
                    for (String w : value(args, ++i, a).split(",")) {
                        o.workloads.add(w.trim().toLowerCase().replace("workload", ""));
                    }
                    break;
                case "--threads":
                    o.threads = new ArrayList<>();
                    for (String t : value(args, ++i, a).split(",")) {
                        o.threads.add(Integer.parseInt(t.trim()));
                    }
                    break;
                case "--transports":
                    o.transports = new ArrayList<>(Arrays.asList(value(args, ++i, a).split(",")));
                    break;
                case "--seconds":
                    o.seconds = Integer.parseInt(value(args, ++i, a));
                    break;
                case "--records":
                    o.records = Integer.parseInt(value(args, ++i, a));
                    break;
                case "--runs":
                    o.runs = Integer.parseInt(value(args, ++i, a));
                    if (o.runs < 1) {
                        throw new IllegalArgumentException("--runs needs at least 1, got " + o.runs);
                    }
                    break;
                case "--server-threads":
                    o.serverThreads = Integer.parseInt(value(args, ++i, a));
                    break;
                case "--neighbours":
                    o.neighbours = value(args, ++i, a);
                    Neighbours.check(o.neighbours);
                    break;
                case "-p":
                    String prop = value(args, ++i, a);
                    if (prop.indexOf('=') <= 0) {
                        throw new IllegalArgumentException("-p needs name=value, got " + prop);
                    }
                    o.ycsbProperties.add(prop);
                    break;
                case "--out":
                    o.out = Paths.get(value(args, ++i, a));
                    break;
                case "--workload-dir":
                    o.workloadDir = Paths.get(value(args, ++i, a));
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + a);
            }
        }
        return o;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
