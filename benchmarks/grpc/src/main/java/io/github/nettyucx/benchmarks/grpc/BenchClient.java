/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.ResultRow;
import io.github.nettyucx.grpc.AllocatorChoice;
import io.github.nettyucx.grpc.GrpcWiring;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.EventLoopGroup;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The client JVM of a benchmark run: one channel to a {@link BenchServer}; a warm-up ({@link WarmUp}), then the
 * scenarios one after another, each with a ramp and a measurement window, one {@code RESULT} line each on
 * standard output (a failed scenario gives a line with its status).
 */
public final class BenchClient {

    private BenchClient() {
    }

    /** What {@link VariantRun} starts this JVM with. */
    @Command(name = "BenchClient")
    private static final class Options {
        @Option(names = "--transport")
        String transport = "ucx";

        @Option(names = "--port", required = true)
        int port;

        @Option(names = "--scenarios", required = true)
        String scenarios;

        @Option(names = "--allocator", description = "grpc or channel")
        String allocator = "grpc";

        @Option(names = "--executor", description = "direct or default")
        String executor = "direct";

        @Option(names = "--warmup")
        double warmup = 10;

        @Option(names = "--warmup-max")
        double warmupMax = 40;

        @Option(names = "--ramp")
        double ramp = 2;

        @Option(names = "--measure")
        double measure = 10;

        @Option(names = "--run")
        int run = 1;
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options();
        new CommandLine(options).parseArgs(args);
        NettyTransport transport = NettyTransport.of(options.transport);
        AllocatorChoice allocator = AllocatorChoice.of(options.allocator);
        ExecutorChoice executor = ExecutorChoice.of(options.executor);
        List<Scenario> scenarios = Scenario.parseList(options.scenarios);
        double warmup = options.warmup;
        double warmupMax = options.warmupMax;
        double ramp = options.ramp;
        double measure = options.measure;
        int run = options.run;
        transport.ensureAvailable();

        EventLoopGroup group = transport.newEventLoopGroup(1, "bench-client");
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", options.port).usePlaintext()
                .maxInboundMessageSize(32 << 20);
        GrpcWiring.onTransport(builder, transport, group, allocator);
        executor.applyTo(builder);
        ManagedChannel channel = builder.build();
        try {
            // Connect before anything is timed.
            EchoGrpc.newBlockingStub(channel).withWaitForReady().withDeadlineAfter(30, TimeUnit.SECONDS)
                    .unary(EchoRequest.getDefaultInstance());
            WarmUp.Outcome warm = null;
            String warmUpFailure = null;
            try {
                warm = new WarmUp(scenarios, channel, warmup, warmupMax).run();
            } catch (RuntimeException e) {
                warmUpFailure = "the warm-up failed: " + e.getMessage();
            }
            for (Scenario s : scenarios) {
                ResultRow r = GrpcResults.COLUMNS.newRow().put("transport", transport.id())
                        .put("allocator", allocator.id()).put("executor", executor.id())
                        .put("benchmark", s.benchmark()).put("size_bytes", s.size).put("concurrency", s.concurrency)
                        .put("run", run);
                if (warm != null) {
                    warm.addTo(r);
                    try (Load load = Load.start(s, channel)) {
                        put(MeasurementWindow.run(load, ramp, measure), s, r);
                    } catch (Exception e) {
                        r.put("status", "failed").put("note", e.toString());
                    }
                } else {
                    r.put("status", "failed").put("note", warmUpFailure);
                }
                System.out.println(r.toLine());
                System.out.flush();
            }
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** The window's figures: round trips and calls per second, or streamed messages and bytes per second. */
    static void put(LoadWindow w, Scenario s, ResultRow r) {
        double seconds = w.seconds();
        r.put("elapsed_s", seconds);
        if (!s.measuresCalls()) {
            r.put("calls", 1).put("msgs_per_s", w.operations / seconds)
                    .put("mb_per_s", w.operations * (double) s.size / 1e6 / seconds);
            return;
        }
        Histogram h = w.roundTrips;
        if (h.getTotalCount() == 0) {
            throw new IllegalStateException("no call completed during the measurement");
        }
        r.put("calls", h.getTotalCount()).put("p50_us", h.getValueAtPercentile(50) / 1e3)
                .put("p99_us", h.getValueAtPercentile(99) / 1e3).put("p999_us", h.getValueAtPercentile(99.9) / 1e3)
                .put("mean_us", h.getMean() / 1e3).put("calls_per_s", h.getTotalCount() / seconds);
    }
}
