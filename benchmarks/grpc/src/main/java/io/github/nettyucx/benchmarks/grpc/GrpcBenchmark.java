/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.MachineFacts;
import io.github.nettyucx.benchmarks.core.ResultRow;
import io.github.nettyucx.support.NettyTransport;
import picocli.CommandLine;

import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The gRPC benchmark: for each transport, allocator and executor choice a server JVM and a client JVM on this
 * host, the client warming up and then running its scenarios on one channel; then the results as CSV, Markdown
 * and charts. Run by {@code bin/bench grpc}; progress goes to standard error.
 */
public final class GrpcBenchmark {
    private GrpcBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        GrpcOptions options = new GrpcOptions();
        CommandLine line = new CommandLine(options);
        Settings settings;
        try {
            line.parseArgs(args);
            if (CommandLine.printHelpIfRequested(line.getParseResult())) {
                return;
            }
            settings = options.settings();
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
            System.err.println("bin/bench grpc: " + e.getMessage());
            line.usage(System.err);
            System.exit(2);
            return;
        }
        Path out = options.out;

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
                        + " --measure > 0");
            }
            if (scenarios.values().stream().allMatch(List::isEmpty)) {
                throw new IllegalArgumentException("no scenarios to run: give --scenarios or "
                        + "--default-executor-scenarios a list");
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
