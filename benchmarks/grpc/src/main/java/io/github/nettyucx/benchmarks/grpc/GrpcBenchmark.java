/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.MachineFacts;
import io.github.nettyucx.benchmarks.core.ResultRow;
import io.github.nettyucx.grpc.CommandLine;
import io.github.nettyucx.support.NettyTransport;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The gRPC benchmark: for each transport, allocator and executor choice a server JVM and a client JVM on this
 * host, the client warming up and then running its scenarios on one channel; then the results as CSV, Markdown
 * and charts. Run by {@code bin/bench-grpc}; progress goes to standard error.
 */
public final class GrpcBenchmark {
    private static final String USAGE = "usage: bin/bench grpc [--quick | --full]"
            + " [--transports ucx,epoll,nio,io_uring] [--channel-allocator ucx] [--runs N]\n"
            + "       [--warmup MIN_S] [--warmup-max MAX_S] [--ramp S] [--measure S]\n"
            + "       [--scenarios unary:16:1,stream:1024,...] [--default-executor-scenarios blocking:1024:8,...]"
            + " [--out docs/grpc]";
    /** The direct-executor variants' scenarios in --full mode. */
    private static final String FULL_SCENARIOS = "unary:16:1,unary:1024:1,unary:65536:1,"
            + "unary:16:64,unary:1024:64,unary:65536:64,stream:1024,stream:65536";
    /** --quick keeps 1 KiB latency and throughput and the large-message stream: three of the eight. */
    private static final String QUICK_SCENARIOS = "unary:1024:1,unary:1024:64,stream:65536";
    private static final String DEFAULT_EXECUTOR_SCENARIOS = "blocking:1024:1,blocking:1024:8";

    private GrpcBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Settings settings;
        Path out;
        try {
            CommandLine cl = new CommandLine(args, Set.of("transports", "channel-allocator", "runs", "warmup",
                    "warmup-max", "ramp", "measure", "scenarios", "default-executor-scenarios", "out"),
                    Set.of("quick", "full"), USAGE);
            boolean full = cl.flag("full");
            Map<ExecutorChoice, List<Scenario>> scenarios = new LinkedHashMap<>();
            scenarios.put(ExecutorChoice.DIRECT,
                    Scenario.parseList(cl.get("scenarios", full ? FULL_SCENARIOS : QUICK_SCENARIOS)));
            scenarios.put(ExecutorChoice.DEFAULT,
                    Scenario.parseList(cl.get("default-executor-scenarios", DEFAULT_EXECUTOR_SCENARIOS)));
            settings = new Settings(
                    cl.get("transports", full ? "ucx,epoll,nio,io_uring" : "ucx,epoll,nio"),
                    cl.get("channel-allocator", "ucx"),
                    cl.intValue("runs", full ? 3 : 1),
                    cl.doubleValue("warmup", 10),
                    cl.doubleValue("warmup-max", 40),
                    cl.doubleValue("ramp", 2),
                    cl.doubleValue("measure", 10),
                    scenarios,
                    full ? "full" : "quick");
            out = Paths.get(cl.get("out", "docs/grpc"));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }

        String loadBefore = MachineFacts.loadAverage();
        ZonedDateTime started = ZonedDateTime.now();
        List<ResultRow> results = new ArrayList<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        List<Variant> variants = settings.variants(skipped);
        int total = settings.runs * variants.size();
        int done = 0;
        for (int run = 1; run <= settings.runs; run++) {
            for (Variant v : Settings.order(variants, run)) {
                done++;
                System.err.printf(Locale.ROOT, "[%d/%d] run %d, %s: warm-up %s-%s s, then %d scenarios of %s s ramp"
                        + " + %s s window%n", done, total, run, v.label(), seconds(settings.warmup),
                        seconds(settings.warmupMax), v.scenarios.size(), seconds(settings.ramp),
                        seconds(settings.measure));
                results.addAll(new VariantRun(v, settings, run).execute());
            }
        }
        String loadAfter = MachineFacts.loadAverage();
        String command = System.getProperty("bench.command", "GrpcBenchmark " + String.join(" ", Arrays.asList(args)));
        new GrpcReport(results, skipped, settings, command, started, loadBefore, loadAfter).write(out);
        System.err.println("results: " + out.resolve("results.md"));
    }

    static String seconds(double s) {
        return s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s);
    }

    /** What one invocation measures. */
    static final class Settings {
        final List<NettyTransport> transports = new ArrayList<>();
        final List<NettyTransport> channelAllocator = new ArrayList<>();
        final int runs;
        /** The warm-up's least and greatest length, per client JVM. */
        final double warmup;
        final double warmupMax;
        /** Each scenario's ramp before its window. */
        final double ramp;
        final double measure;
        /** The scenarios of each executor's variants; an executor without scenarios has no variants. */
        final Map<ExecutorChoice, List<Scenario>> scenarios;
        final String mode;

        Settings(String transports, String channelAllocator, int runs, double warmup, double warmupMax, double ramp,
                 double measure, Map<ExecutorChoice, List<Scenario>> scenarios, String mode) {
            for (String t : transports.split(",")) {
                this.transports.add(NettyTransport.of(t.trim()));
            }
            for (String t : channelAllocator.split(",")) {
                if (!t.isBlank()) {
                    this.channelAllocator.add(NettyTransport.of(t.trim()));
                }
            }
            if (runs < 1 || warmup < 0 || warmupMax < warmup || ramp < 0 || measure <= 0) {
                throw new IllegalArgumentException("need --runs >= 1, 0 <= --warmup <= --warmup-max, --ramp >= 0 and"
                        + " --measure > 0\n" + USAGE);
            }
            if (scenarios.values().stream().allMatch(List::isEmpty)) {
                throw new IllegalArgumentException("no scenarios to run\n" + USAGE);
            }
            this.runs = runs;
            this.warmup = warmup;
            this.warmupMax = warmupMax;
            this.ramp = ramp;
            this.measure = measure;
            this.scenarios = scenarios;
            this.mode = mode;
        }

        /**
         * For each transport the server and client JVMs can run here: the direct executor with gRPC's allocator
         * and, where asked, the channel's; then the default executor with gRPC's allocator.
         */
        List<Variant> variants(Map<String, String> skipped) {
            List<Variant> list = new ArrayList<>();
            List<Scenario> direct = scenarios.getOrDefault(ExecutorChoice.DIRECT, List.of());
            List<Scenario> pooled = scenarios.getOrDefault(ExecutorChoice.DEFAULT, List.of());
            for (NettyTransport t : transports) {
                String reason = t.unavailabilityReasonForChildJvm();
                if (reason != null) {
                    skipped.put(t.id(), reason);
                    System.err.println("skipping " + t.id() + ": not available here: " + reason);
                    continue;
                }
                if (!direct.isEmpty()) {
                    list.add(new Variant(t, "grpc", ExecutorChoice.DIRECT, direct));
                    if (channelAllocator.contains(t)) {
                        list.add(new Variant(t, "channel", ExecutorChoice.DIRECT, direct));
                    }
                }
                if (!pooled.isEmpty()) {
                    list.add(new Variant(t, "grpc", ExecutorChoice.DEFAULT, pooled));
                }
            }
            return list;
        }

        /**
         * The variants in the order run {@code run} takes them: as given in odd runs, reversed in even ones, so
         * that no transport always runs first or last while the machine's state (other work, temperature, clock
         * speed) drifts during an invocation.
         */
        static List<Variant> order(List<Variant> variants, int run) {
            List<Variant> order = new ArrayList<>(variants);
            if (run % 2 == 0) {
                Collections.reverse(order);
            }
            return order;
        }
    }

    /** A transport with an allocator and an executor choice, and the scenarios its client JVM runs. */
    static final class Variant {
        final NettyTransport transport;
        final String allocator;
        final ExecutorChoice executor;
        final List<Scenario> scenarios;

        Variant(NettyTransport transport, String allocator, ExecutorChoice executor, List<Scenario> scenarios) {
            this.transport = transport;
            this.allocator = allocator;
            this.executor = executor;
            this.scenarios = scenarios;
        }

        String label() {
            return transport.id() + " (" + allocator + " allocator, " + executor.id() + " executor)";
        }
    }
}
