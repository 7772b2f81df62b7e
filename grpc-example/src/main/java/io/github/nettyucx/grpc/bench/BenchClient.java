/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import io.github.nettyucx.grpc.AllocatorChoice;
import io.github.nettyucx.grpc.CommandLine;
import io.github.nettyucx.grpc.GrpcWiring;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.support.NettyTransport;
import io.github.nettyucx.support.Percentiles;
import io.github.nettyucx.support.ResultRow;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.EventLoopGroup;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The client JVM of a benchmark run: one channel to a {@link BenchServer}, the scenarios one after another,
 * one {@code RESULT} line each on standard output (a failed scenario gives a line with its status).
 */
public final class BenchClient {
    private static final String USAGE = "usage: BenchClient --transport T --port P --scenarios LIST "
            + "[--allocator grpc|channel] [--executor direct|pool] [--warmup S] [--measure S] [--run N]";

    private BenchClient() {
    }

    public static void main(String[] args) throws Exception {
        CommandLine cl = new CommandLine(args, Set.of("transport", "port", "scenarios", "allocator", "executor",
                "warmup", "measure", "run"), Set.of(), USAGE);
        NettyTransport transport = NettyTransport.of(cl.get("transport", "ucx"));
        AllocatorChoice allocator = AllocatorChoice.of(cl.get("allocator", "grpc"));
        boolean direct = ExecutorChoice.isDirect(cl.get("executor", "direct"));
        List<Scenario> scenarios = Scenario.parseList(cl.get("scenarios", ""));
        double warmup = cl.doubleValue("warmup", 1);
        double measure = cl.doubleValue("measure", 2);
        int run = cl.intValue("run", 1);
        transport.ensureAvailable();

        EventLoopGroup group = transport.newEventLoopGroup(1, "bench-client");
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", cl.intValue("port", 0)).usePlaintext()
                .maxInboundMessageSize(32 << 20);
        GrpcWiring.onTransport(builder, transport, group, allocator);
        if (direct) {
            builder.directExecutor();
        }
        ManagedChannel channel = builder.build();
        try {
            EchoGrpc.EchoStub stub = EchoGrpc.newStub(channel);
            // Connect before anything is timed.
            EchoGrpc.newBlockingStub(channel).withWaitForReady().withDeadlineAfter(30, TimeUnit.SECONDS)
                    .unary(EchoRequest.getDefaultInstance());
            for (Scenario s : scenarios) {
                ResultRow r = GrpcResults.COLUMNS.newRow().put("transport", transport.id())
                        .put("allocator", allocator.id()).put("benchmark", s.benchmark()).put("size_bytes", s.size)
                        .put("concurrency", s.concurrency).put("run", run).put("elapsed_s", measure);
                try {
                    measure(stub, s, warmup, measure, r);
                } catch (Exception e) {
                    r.put("status", "failed").put("note", e.toString());
                }
                System.out.println(r.toLine());
                System.out.flush();
            }
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static void measure(EchoGrpc.EchoStub stub, Scenario s, double warmup, double measure, ResultRow r)
            throws Exception {
        if (s.kind == Scenario.Kind.UNARY) {
            long[] latencies = new UnaryLoad(stub, s.size, s.concurrency).run(warmup, measure);
            if (latencies.length == 0) {
                throw new IllegalStateException("no call completed during the measurement");
            }
            Percentiles p = Percentiles.of(latencies);
            r.put("calls", p.count()).put("p50_us", p.at(50) / 1e3).put("p99_us", p.at(99) / 1e3)
                    .put("p999_us", p.at(99.9) / 1e3).put("mean_us", p.mean() / 1e3)
                    .put("calls_per_s", p.count() / measure);
        } else {
            long messages = new StreamLoad(stub, s.size).run(warmup, measure);
            r.put("calls", 1).put("msgs_per_s", messages / measure)
                    .put("mb_per_s", messages * (double) s.size / 1e6 / measure);
        }
    }
}
