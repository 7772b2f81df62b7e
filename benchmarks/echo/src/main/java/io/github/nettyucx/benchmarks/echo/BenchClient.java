/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.ByteSizes;
import io.github.nettyucx.benchmarks.core.ChildProcess;
import io.github.nettyucx.benchmarks.core.ResultRow;
import io.github.nettyucx.support.NettyTransport;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.HdrHistogram.Histogram;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client process of one transport (or {@link TransportPair}) and run: starts the server process,
 * runs the benchmarks it is given one after the other, and prints one {@code RESULT} line per benchmark
 * (plus {@code PROGRESS}, {@code LANES} and {@code SKIP} lines) for the coordinator.
 */
final class BenchClient {
    static final int THREADS = 2;

    private final TransportPair pair;
    /** The client's transport. */
    private final NettyTransport transport;
    private final int run;
    private final long limitNanos;
    private final double targetSeconds;
    private boolean printLanes;
    private final MachineProbe machine;
    private EventLoopGroup group;
    private ChildProcess server;
    private int port;

    private BenchClient(TransportPair pair, int run, double limitSeconds, double targetSeconds,
                        boolean printLanes, MachineProbe machine) {
        this.pair = pair;
        this.transport = pair.client();
        this.machine = machine;
        this.run = run;
        this.limitNanos = (long) (limitSeconds * 1e9);
        this.targetSeconds = targetSeconds;
        this.printLanes = printLanes;
    }

    /** One benchmark: {@code pingpong:SIZE:1:OPS} or {@code throughput:SIZE:CONNECTIONS:MESSAGES}. */
    static final class Spec {
        final String kind;
        final int size;
        final int connections;
        final int count;

        Spec(String kind, int size, int connections, int count) {
            this.kind = kind;
            this.size = size;
            this.connections = connections;
            this.count = count;
        }

        static Spec parse(String text) {
            String[] p = text.split(":");
            return new Spec(p[0], Integer.parseInt(p[1]), Integer.parseInt(p[2]), Integer.parseInt(p[3]));
        }

        @Override
        public String toString() {
            return kind + ":" + size + ":" + connections + ":" + count;
        }
    }

    static void main(TransportPair pair, int run, double limitSeconds, double targetSeconds, boolean lanes,
                     double machineReference, List<Spec> specs) throws Exception {
        String reason = unavailabilityReason(pair);
        if (reason != null) {
            System.out.println("SKIP " + reason);
            System.out.flush();
            System.exit(0);
        }
        BenchClient client = new BenchClient(pair, run, limitSeconds, targetSeconds, lanes,
                new MachineProbe(machineReference));
        int status = 0;
        try {
            client.startServer(specs.size() * (limitSeconds * 3 + 20) + 60);
            client.group = pair.client().newEventLoopGroup(THREADS);
            for (Spec spec : specs) {
                client.runOne(spec);
            }
        } catch (Throwable t) {
            System.err.println("bench client (" + pair.id() + "): " + t);
            t.printStackTrace();
            status = 1;
        } finally {
            if (client.server != null) {
                client.server.stop(10);
            }
            if (client.group != null) {
                client.group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
            }
        }
        System.out.flush();
        System.exit(status);
    }

    /** Why the client or, in this JVM's view, the server cannot run here; null when both can. */
    private static String unavailabilityReason(TransportPair pair) {
        String client = pair.client().unavailabilityReason();
        if (!pair.mixed()) {
            return client;
        }
        if (client != null) {
            return "client " + pair.client().id() + ": " + client;
        }
        // This JVM has the client's environment, not the server's: ask as the launcher of a JVM with the server's.
        String server = pair.server().unavailabilityReasonForChildJvm();
        return server == null ? null : "server " + pair.server().id() + ": " + server;
    }

    private static void emit(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    private void startServer(double maxLifetimeSeconds) throws Exception {
        server = SystemBenchmark.startJava(SystemBenchmark.SERVER_JVM_OPTIONS,
                List.of("--server", pair.server().id(), String.valueOf(THREADS),
                        String.valueOf((long) maxLifetimeSeconds)),
                pair.server(), pair.client().environment().keySet());
        String line;
        try {
            line = server.lines().next(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            line = null;
        }
        if (line == null || !line.startsWith("PORT ")) {
            throw new IllegalStateException("server process did not start (first line: " + line + ")");
        }
        port = Integer.parseInt(line.substring(5).trim());
    }

    private long serverCpuNanos() throws Exception {
        OutputStream out = server.process().getOutputStream();
        out.write("CPU\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String line;
        try {
            line = server.lines().awaitPrefix("CPU ", 10, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            line = null;
        }
        if (line == null) {
            throw new IllegalStateException("server process did not report its CPU time");
        }
        return Long.parseLong(line.substring(4).trim());
    }

    /** Runs one benchmark in a normal phase of the machine and prints its row. */
    private void runOne(Spec spec) throws InterruptedException {
        emit(machine.guard(() -> measure(spec), BenchClient::progress).toLine());
    }

    private static void progress(String text) {
        emit("PROGRESS   " + text);
    }

    private ResultRow measure(Spec spec) {
        ResultRow result = BenchResults.row(pair.id(), spec.kind, spec.size, spec.connections, run);
        long started = System.nanoTime();
        List<Channel> channels = new ArrayList<>();
        try {
            if ("pingpong".equals(spec.kind)) {
                pingPong(spec, result, channels);
            } else {
                throughput(spec, result, channels);
            }
        } catch (Throwable t) {
            Throwable cause = t instanceof java.util.concurrent.ExecutionException && t.getCause() != null
                    ? t.getCause() : t;
            String what = cause instanceof TimeoutException ? "timeout" : "error";
            result.put("status", what).put("note", what + ": " + cause);
            System.err.println("bench client (" + pair.id() + ", " + spec + "): " + cause);
        } finally {
            for (Channel ch : channels) {
                ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
        return result.put("elapsed_s", (System.nanoTime() - started) / 1e9);
    }

    private Channel connect(ChannelInboundHandlerAdapter handler) throws Exception {
        return new Bootstrap().group(group).channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(handler)
                .connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
    }

    private void maybePrintLanes(Channel ch) {
        if (!printLanes || !transport.isUcx()) {
            return;
        }
        printLanes = false;
        try {
            String text = ((UcxSocketChannel) ch).ucxLanes().get(10, TimeUnit.SECONDS);
            boolean any = false;
            for (String line : text.split("\n")) {
                if (line.contains("lane[")) {
                    emit("LANES " + line.replaceFirst("^[#\\s]+", "").strip());
                    any = true;
                }
            }
            if (!any) {
                emit("LANES (no lane lines) " + text.replace('\n', ' '));
            }
        } catch (Exception e) {
            emit("LANES n/a: " + e);
        }
    }

    private <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(limitNanos + TimeUnit.SECONDS.toNanos(15), TimeUnit.NANOSECONDS);
    }

    private void pingPong(Spec spec, ResultRow result, List<Channel> channels) throws Exception {
        PingPongHandler handler = new PingPongHandler(spec.size);
        Channel ch = connect(handler);
        channels.add(ch);
        await(handler.active);
        maybePrintLanes(ch);
        int warmup = Math.max(1, spec.count / 10);
        int measured = Math.max(1, spec.count - warmup);
        long deadline = System.nanoTime() + limitNanos;
        int warmed = await(handler.phase(warmup, false, deadline));
        long c0 = BenchServer.processCpuNanos();
        long s0 = serverCpuNanos();
        long t0 = System.nanoTime();
        int done = await(handler.phase(measured, true, deadline));
        long t1 = System.nanoTime();
        long c1 = BenchServer.processCpuNanos();
        long s1 = serverCpuNanos();
        if (done == 0) {
            throw new TimeoutException("no round trip measured within the time limit");
        }
        Histogram rtts = handler.rtts();
        result.put("ops", done).put("warmup_ops", warmed)
                .put("p50_us", rtts.getValueAtPercentile(50) / 1e3)
                .put("p99_us", rtts.getValueAtPercentile(99) / 1e3)
                .put("p999_us", rtts.getValueAtPercentile(99.9) / 1e3)
                .put("mean_us", rtts.getMean() / 1e3)
                .put("max_us", rtts.getMaxValue() / 1e3)
                .put("msgs_per_s", done / ((t1 - t0) / 1e9))
                .put("client_cpu_us_per_op", (c1 - c0) / 1e3 / done)
                .put("server_cpu_us_per_op", (s1 - s0) / 1e3 / done);
        if (done < measured) {
            result.put("status", "partial").put("note", "time limit: " + done + " of " + measured + " round trips");
        }
        progress(String.format(Locale.ROOT, "pingpong %s: p50 %.1f us, p99 %.1f us (%d round trips)",
                ByteSizes.label(spec.size), rtts.getValueAtPercentile(50) / 1e3, rtts.getValueAtPercentile(99) / 1e3,
                done));
    }

    /** Messages per flush: 64 for 16 B, 16 for 1 KiB, 4 for 64 KiB, geometric in between, at least 1. */
    static int flushEvery(int size) {
        switch (size) {
            case 16:
                return 64;
            case 1024:
                return 16;
            case 65536:
                return 4;
            default:
                return (int) Math.max(1, Math.round(64 * Math.cbrt(16.0 / size)));
        }
    }

    private void throughput(Spec spec, ResultRow result, List<Channel> channels) throws Exception {
        int conns = spec.connections;
        int flush = flushEvery(spec.size);
        List<ThroughputHandler> handlers = new ArrayList<>();
        for (int i = 0; i < conns; i++) {
            ThroughputHandler h = new ThroughputHandler(spec.size, flush);
            channels.add(connect(h));
            handlers.add(h);
        }
        for (ThroughputHandler h : handlers) {
            await(h.active);
        }
        maybePrintLanes(channels.get(0));
        long perConnMax = Math.max(flush, spec.count / conns);
        long warmPerConn = Math.max(flush, perConnMax / 10);
        long deadline = System.nanoTime() + limitNanos;
        long w0 = System.nanoTime();
        runPhase(handlers, warmPerConn, deadline);
        double warmSeconds = (System.nanoTime() - w0) / 1e9;
        // Measure N messages, fewer if the warm-up rate says N would take much longer than the target time.
        double rate = warmPerConn * conns / Math.max(warmSeconds, 1e-6);
        long perConn = (long) Math.min(perConnMax, Math.max(warmPerConn, rate * targetSeconds / conns));
        long c0 = BenchServer.processCpuNanos();
        long s0 = serverCpuNanos();
        long t0 = System.nanoTime();
        runPhase(handlers, perConn, System.nanoTime() + limitNanos);
        long t1 = System.nanoTime();
        long c1 = BenchServer.processCpuNanos();
        long s1 = serverCpuNanos();
        long messages = perConn * conns;
        double seconds = (t1 - t0) / 1e9;
        result.put("ops", messages).put("warmup_ops", warmPerConn * conns)
                .put("mb_per_s", messages * (double) spec.size / seconds / 1e6)
                .put("msgs_per_s", messages / seconds)
                .put("client_cpu_us_per_op", (c1 - c0) / 1e3 / messages)
                .put("server_cpu_us_per_op", (s1 - s0) / 1e3 / messages)
                .put("note", "flush every " + flush + " messages");
        progress(String.format(Locale.ROOT, "throughput %s x %d conn: %.1f MB/s, %.0f msg/s (%d messages)",
                ByteSizes.label(spec.size), conns, messages * (double) spec.size / seconds / 1e6,
                messages / seconds, messages));
    }

    private void runPhase(List<ThroughputHandler> handlers, long perConn, long deadline) throws Exception {
        List<CompletableFuture<Void>> phases = new ArrayList<>();
        for (ThroughputHandler h : handlers) {
            phases.add(h.phase(perConn, deadline));
        }
        await(CompletableFuture.allOf(phases.toArray(new CompletableFuture<?>[0])));
    }
}
