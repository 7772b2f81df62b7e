/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command line of {@link SystemBenchmark}'s coordinator. The mode (--quick, --full, --streams, --sustained) sets the
 * sizes, runs, transports and output folder that the other options, when given, replace.
 */
@Command(name = "bin/bench echo", mixinStandardHelpOptions = true,
        description = "Whole-system echo benchmark: for each transport a client JVM and a server JVM on this host.",
        footer = {"", "A transport may be a pair CLIENT-to-SERVER of any two, e.g. epoll-to-ucx (an epoll client of a "
                + "UCX server) or ucx-to-epoll (a UCX client that falls back to plain TCP)."})
final class EchoOptions {
    @Spec
    private CommandSpec spec;

    SystemBenchmark.Mode mode = SystemBenchmark.Mode.QUICK;
    /** Null: the mode's. */
    Integer runs;
    /** Null: the mode's. */
    Path out;
    /** Null: the mode's, each against itself. */
    List<TransportPair> transports;

    @Option(names = "--no-perftest", description = "leave ucx_perftest (the raw UCX limit) out")
    boolean noPerftest;

    @Option(names = "--quick", description = "(default) a few sizes and connection counts: about a minute")
    void quick(boolean on) {
        mode = SystemBenchmark.Mode.QUICK;
    }

    @Option(names = "--full", description = "sizes 16 B to 1 MiB (powers of 4), 1 to 16 connections, 3 runs")
    void full(boolean on) {
        mode = SystemBenchmark.Mode.FULL;
    }

    @Option(names = "--streams", description = "throughput only, 1 KiB and 64 KiB over 1 and 4 connections, each "
            + "measured for about 3 s after a warm-up (the quick cases past the JVMs' start), 5 runs")
    void streams(boolean on) {
        mode = SystemBenchmark.Mode.STREAMS;
    }

    @Option(names = "--sustained", description = "epoll and ucx-tcp where both are bound by the kernel's TCP work, "
            + "8 s each, 5 runs")
    void sustained(boolean on) {
        mode = SystemBenchmark.Mode.SUSTAINED;
    }

    @Option(names = "--runs", paramLabel = "N", description = "runs of everything (default: the mode's)")
    void runs(int value) {
        if (value < 1) {
            throw new ParameterException(spec.commandLine(), "--runs needs at least 1, got " + value);
        }
        runs = value;
    }

    @Option(names = "--out", paramLabel = "DIR", description = "where the results go (default: the mode's, "
            + "docs/benchmarks, docs/benchmarks-streams or docs/benchmarks-sustained)")
    void out(Path dir) {
        out = dir;
    }

    @Option(names = "--transports", split = ",", paramLabel = "nio,epoll,io_uring,ucx,ucx-tcp",
            description = "transports or CLIENT-to-SERVER pairs (default: the mode's)")
    void transports(List<String> names) {
        List<TransportPair> pairs = new ArrayList<>();
        for (String name : names) {
            try {
                pairs.add(TransportPair.of(name));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, name);
            }
        }
        transports = pairs;
    }
}
