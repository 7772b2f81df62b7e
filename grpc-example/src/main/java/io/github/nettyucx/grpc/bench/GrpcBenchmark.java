/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import io.github.nettyucx.grpc.CommandLine;
import io.github.nettyucx.support.MachineFacts;
import io.github.nettyucx.support.NettyTransport;
import io.github.nettyucx.support.ResultRow;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The gRPC benchmark: for each transport (and allocator choice) a server JVM and a client JVM on this host,
 * the client running every scenario on one channel; then the results as CSV, Markdown and charts.
 * Run by {@code bin/bench-grpc}; progress goes to standard error.
 */
public final class GrpcBenchmark {
    private static final String USAGE = "usage: bin/bench-grpc [--quick | --full]"
            + " [--transports ucx,epoll,nio,io_uring]\n"
            + "       [--channel-allocator ucx] [--runs N] [--warmup S] [--measure S] [--executor direct|pool]\n"
            + "       [--scenarios unary:16:1,stream:1024,...] [--out docs/grpc]";
    private static final String DEFAULT_SCENARIOS = "unary:16:1,unary:1024:1,unary:65536:1,"
            + "unary:16:64,unary:1024:64,unary:65536:64,stream:1024,stream:65536";

    private GrpcBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Settings settings;
        Path out;
        try {
            CommandLine cl = new CommandLine(args, Set.of("transports", "channel-allocator", "runs", "warmup",
                    "measure", "executor", "scenarios", "out"), Set.of("quick", "full"), USAGE);
            boolean full = cl.flag("full");
            settings = new Settings(
                    cl.get("transports", full ? "ucx,epoll,nio,io_uring" : "ucx,epoll,nio"),
                    cl.get("channel-allocator", "ucx"),
                    cl.intValue("runs", full ? 3 : 1),
                    cl.doubleValue("warmup", full ? 2 : 1),
                    cl.doubleValue("measure", full ? 5 : 2),
                    cl.get("executor", "direct"),
                    Scenario.parseList(cl.get("scenarios", DEFAULT_SCENARIOS)),
                    full ? "full" : "quick");
            ExecutorChoice.isDirect(settings.executor);
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
            for (Variant v : variants) {
                done++;
                System.err.printf(Locale.ROOT, "[%d/%d] run %d, %s: %d scenarios of %s s + %s s warm-up%n", done,
                        total, run, v.label(), settings.scenarios.size(), seconds(settings.measure),
                        seconds(settings.warmup));
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
        final double warmup;
        final double measure;
        final String executor;
        final List<Scenario> scenarios;
        final String mode;

        Settings(String transports, String channelAllocator, int runs, double warmup, double measure, String executor,
                 List<Scenario> scenarios, String mode) {
            for (String t : transports.split(",")) {
                this.transports.add(NettyTransport.of(t.trim()));
            }
            for (String t : channelAllocator.split(",")) {
                if (!t.isBlank()) {
                    this.channelAllocator.add(NettyTransport.of(t.trim()));
                }
            }
            this.runs = runs;
            this.warmup = warmup;
            this.measure = measure;
            this.executor = executor;
            this.scenarios = scenarios;
            this.mode = mode;
        }

        /**
         * The transports the server and client JVMs can run here, each with gRPC's allocator and, where asked, the
         * channel's.
         */
        List<Variant> variants(Map<String, String> skipped) {
            List<Variant> list = new ArrayList<>();
            for (NettyTransport t : transports) {
                String reason = t.unavailabilityReasonForChildJvm();
                if (reason != null) {
                    skipped.put(t.id(), reason);
                    System.err.println("skipping " + t.id() + ": not available here: " + reason);
                    continue;
                }
                list.add(new Variant(t, "grpc"));
                if (channelAllocator.contains(t)) {
                    list.add(new Variant(t, "channel"));
                }
            }
            return list;
        }
    }

    /** A transport with an allocator choice. */
    static final class Variant {
        final NettyTransport transport;
        final String allocator;

        Variant(NettyTransport transport, String allocator) {
            this.transport = transport;
            this.allocator = allocator;
        }

        String label() {
            return transport.id() + " (" + allocator + " allocator)";
        }
    }
}
