/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command line of {@link GrpcBenchmark}. An option left out takes the default of the mode, --quick (the default) or
 * --full, whatever their order.
 */
@Command(name = "bin/bench grpc", mixinStandardHelpOptions = true,
        description = "gRPC, UCX next to epoll and NIO: for each transport, allocator and executor a server JVM and a "
                + "client JVM on this host.",
        footer = {"", "Scenarios: unary:SIZE:CONCURRENCY, blocking:SIZE:THREADS, stream:SIZE; an empty list leaves "
                + "that set-up out."})
final class GrpcOptions {
    /** The direct-executor variants' scenarios in --full mode. */
    private static final String FULL_SCENARIOS = "unary:16:1,unary:1024:1,unary:65536:1,"
            + "unary:16:64,unary:1024:64,unary:65536:64,stream:1024,stream:65536";
    /** --quick keeps 1 KiB latency and throughput and the large-message stream: three of the eight. */
    private static final String QUICK_SCENARIOS = "unary:1024:1,unary:1024:64,stream:65536";
    private static final String DEFAULT_EXECUTOR_SCENARIOS = "blocking:1024:1,blocking:1024:8";

    @Option(names = "--quick", description = "(default) one run of ucx, epoll and nio, the direct executor running "
            + QUICK_SCENARIOS)
    boolean quick;

    @Option(names = "--full", description = "3 runs, io_uring too, all eight direct-executor scenarios")
    boolean full;

    @Option(names = "--transports", paramLabel = "ucx,epoll,nio,io_uring",
            description = "default: ucx,epoll,nio (--full: with io_uring)")
    String transports;

    @Option(names = "--channel-allocator", paramLabel = "ucx",
            description = "transports also run with the channel's own allocator (default: ${DEFAULT-VALUE})")
    String channelAllocator = "ucx";

    @Option(names = "--runs", paramLabel = "N", description = "default: 1 (--full: 3)")
    Integer runs;

    @Option(names = "--warmup", paramLabel = "MIN_S", description = "least warm-up per client JVM, s "
            + "(default: ${DEFAULT-VALUE})")
    double warmup = 10;

    @Option(names = "--warmup-max", paramLabel = "MAX_S", description = "most warm-up per client JVM, s "
            + "(default: ${DEFAULT-VALUE})")
    double warmupMax = 40;

    @Option(names = "--ramp", paramLabel = "S", description = "ramp before each window, s (default: ${DEFAULT-VALUE})")
    double ramp = 2;

    @Option(names = "--measure", paramLabel = "S", description = "measured window per scenario, s "
            + "(default: ${DEFAULT-VALUE})")
    double measure = 10;

    @Option(names = "--scenarios", paramLabel = "LIST", description = "the direct-executor set-up's scenarios "
            + "(default: " + QUICK_SCENARIOS + "; --full: all eight)")
    String scenarios;

    @Option(names = "--default-executor-scenarios", paramLabel = "LIST",
            description = "the default-executor set-up's scenarios (default: ${DEFAULT-VALUE})")
    String defaultExecutorScenarios = DEFAULT_EXECUTOR_SCENARIOS;

    @Option(names = "--out", paramLabel = "DIR", description = "where the results go (default: ${DEFAULT-VALUE})")
    Path out = Paths.get("docs/grpc");

    /** What these options measure; a wrong scenario or count is an {@link IllegalArgumentException}. */
    GrpcBenchmark.Settings settings() {
        if (quick && full) {
            throw new IllegalArgumentException("--quick and --full exclude each other: give one");
        }
        Map<ExecutorChoice, List<Scenario>> lists = new LinkedHashMap<>();
        lists.put(ExecutorChoice.DIRECT, Scenario.parseList(scenarios != null ? scenarios
                : full ? FULL_SCENARIOS : QUICK_SCENARIOS));
        lists.put(ExecutorChoice.DEFAULT, Scenario.parseList(defaultExecutorScenarios));
        return new GrpcBenchmark.Settings(transports != null ? transports : full ? "ucx,epoll,nio,io_uring"
                : "ucx,epoll,nio", channelAllocator, runs != null ? runs : full ? 3 : 1, warmup, warmupMax, ramp,
                measure, lists, full ? "full" : "quick");
    }
}
