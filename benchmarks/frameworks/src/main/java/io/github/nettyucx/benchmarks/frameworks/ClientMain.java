/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.benchmarks.core.ResultColumns;
import io.github.nettyucx.benchmarks.core.ResultRow;
import io.github.nettyucx.transport.Ucx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

/**
 * The client JVM: warms every scenario up, then measures each in turn and prints a result row per scenario
 * (with {@link Results#WINDOW_BEGIN} and {@link Results#WINDOW_END} around each window).
 */
@Command(name = "bench-frameworks-client", mixinStandardHelpOptions = true)
public final class ClientMain implements Callable<Integer> {
    /** Each scenario runs this long before its window, so that the window starts in the steady state. */
    private static final long RAMP_MILLIS = 1000;

    @Parameters(index = "0", description = "grpc, reactor-netty or vertx")
    private String frameworkId;

    @Parameters(index = "1", description = "ucx, epoll or nio")
    private String transportId;

    @Parameters(index = "2", description = "the server's port on this host")
    private int port;

    @Option(names = "--run", description = "run number, for the results")
    private int run = 1;

    @Option(names = "--warmup", description = "seconds of warm-up, shared by the scenarios")
    private double warmupSeconds = 10;

    @Option(names = "--measure", description = "seconds each scenario is measured")
    private double measureSeconds = 5;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ClientMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Framework framework = Frameworks.of(frameworkId);
        BenchTransport transport = BenchTransport.of(transportId);
        List<Scenario> scenarios = framework.scenarios();
        LongSupplier wakeups = transport.isUcx() ? Ucx::eventLoopWakeupWrites : null;
        int failures = 0;
        try (Framework.Client client = framework.connect(transport, port)) {
            long warmupEach = (long) (warmupSeconds * 1000 / scenarios.size());
            for (Scenario s : scenarios) {
                Load load = new Load(client, s, wakeups).start();
                try {
                    Thread.sleep(warmupEach);
                } finally {
                    load.close();
                }
            }
            for (Scenario s : scenarios) {
                ResultRow row = Results.COLUMNS.newRow().put(Results.FRAMEWORK, framework.id())
                        .put(Results.TRANSPORT, transport.id()).put(Results.RUN, run).put(Results.SCENARIO, s.name());
                try (Load load = new Load(client, s, wakeups).start()) {
                    Thread.sleep(RAMP_MILLIS);
                    System.out.println(Results.WINDOW_BEGIN);
                    load.beginWindow();
                    Thread.sleep((long) (measureSeconds * 1000));
                    load.endWindow(row);
                    System.out.println(Results.WINDOW_END);
                } catch (RuntimeException e) {
                    failures++;
                    row.put(ResultColumns.STATUS, "failed").put(Results.ERROR, e.getMessage());
                }
                System.out.println(row.toLine());
                System.out.flush();
            }
        }
        return failures == 0 ? 0 : 1;
    }
}
