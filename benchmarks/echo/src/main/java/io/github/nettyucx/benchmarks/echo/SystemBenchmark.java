/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.ByteSizes;
import io.github.nettyucx.benchmarks.core.ChildProcess;
import io.github.nettyucx.benchmarks.core.CommandLines;
import io.github.nettyucx.benchmarks.core.JavaCommand;
import io.github.nettyucx.benchmarks.core.ResultRow;
import io.github.nettyucx.support.NettyTransport;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Whole-system benchmark: for each transport, a client process and a server process on this host
 * exchange messages over 127.0.0.1 (ping-pong latency, unidirectional throughput, CPU time per
 * operation). Writes {@code results.csv}, {@code results.md} and PNG charts.
 * Its command line is {@link EchoOptions}; {@code --server} and {@code --client} start the child processes.
 * A transport of {@code --transports} may also be a {@link TransportPair} {@code CLIENT-to-SERVER}
 * ({@code epoll-to-ucx}, {@code ucx-to-epoll}): a client of one transport against a server of another.
 */
public final class SystemBenchmark {
    static final List<String> CHILD_JVM_OPTIONS = List.of("-Xms256m", "-Xmx1g",
            "-Dio.netty.leakDetection.level=disabled");
    /** The server's: the client's, with a throughput collector (it only echoes and counts). */
    static final List<String> SERVER_JVM_OPTIONS = Stream.concat(CHILD_JVM_OPTIONS.stream(),
            Stream.of("-XX:+UseParallelGC")).collect(Collectors.toUnmodifiableList());

    private final long startNanos = System.nanoTime();
    /** The machine's normal cross-core rate: the median of its own probes and those around each result. */
    private final MachineProbe machine = new MachineProbe(0);

    private SystemBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && "--server".equals(args[0])) {
            BenchServer.main(NettyTransport.of(args[1]), Integer.parseInt(args[2]), Long.parseLong(args[3]));
            return;
        }
        if (args.length > 0 && "--client".equals(args[0])) {
            List<BenchClient.Spec> specs = new ArrayList<>();
            for (int i = 7; i < args.length; i++) {
                specs.add(BenchClient.Spec.parse(args[i]));
            }
            BenchClient.main(TransportPair.of(args[1]), Integer.parseInt(args[2]), Double.parseDouble(args[3]),
                    Double.parseDouble(args[4]), Boolean.parseBoolean(args[5]), Double.parseDouble(args[6]), specs);
            return;
        }
        EchoOptions options = new EchoOptions();
        if (!CommandLines.parse("bin/bench echo", options, args)) {
            return;
        }
        new SystemBenchmark().coordinate(options, args);
    }

    private void progress(String text) {
        System.out.printf(Locale.ROOT, "[%6.1fs] %s%n", (System.nanoTime() - startNanos) / 1e9, text);
        System.out.flush();
    }

    private void coordinate(EchoOptions options, String[] args) throws Exception {
        Mode mode = options.mode;
        int runs = options.runs != null ? options.runs : mode.runs;
        Path out = options.out != null ? options.out : mode.out;
        List<TransportPair> transports = options.transports != null ? options.transports
                : mode.transports.stream().map(t -> new TransportPair(t, t)).collect(Collectors.toList());
        boolean noPerftest = options.noPerftest;
        boolean perftest = mode.perftest && !noPerftest;
        boolean full = mode == Mode.FULL;
        List<BenchClient.Spec> specs = plan(mode);
        List<List<BenchClient.Spec>> kinds = byKind(specs);

        Report report = new Report(mode, runs, String.join(" ", args), transports);
        progress(String.format(Locale.ROOT, "%s mode: %d transports x %d benchmarks x %d run(s); output to %s",
                mode.id, transports.size(), specs.size(), runs, out.toAbsolutePath()));
        for (int i = 0; i < 5; i++) {
            machine.observe(machine.measure());
        }
        progress(String.format(Locale.ROOT, "machine: cross-core copies at %.0f MB/s (median of 5 probes); "
                + "a measurement waits while they run below %.0f%% of the median seen", machine.reference(),
                MachineProbe.SLOW_SHARE * 100));
        Map<String, Boolean> lanesPrinted = new LinkedHashMap<>();
        for (int run = 1; run <= runs; run++) {
            for (TransportPair t : transports) {
                for (List<BenchClient.Spec> kind : kinds) {
                    if (report.skipped.containsKey(t.id())) {
                        break;
                    }
                    // Only a UCX client can tell its lanes ("plain TCP" when it fell back): for epoll-to-ucx
                    // they would be the server's, which it is not asked for.
                    boolean lanes = t.client().isUcx() && !lanesPrinted.getOrDefault(t.id(), false);
                    lanesPrinted.put(t.id(), true);
                    runClient(t, run, runs, kind, mode.limitSeconds, mode.targetSeconds, lanes, report);
                }
            }
        }
        if (perftest) {
            String exe = PerfTest.find();
            if (exe == null) {
                report.perftestNote = "ucx_perftest is not on PATH (Debian/Ubuntu package ucx-utils)";
                progress("ucx_perftest: skipped, " + report.perftestNote);
            } else {
                int latIters = full ? 100_000 : 20_000;
                int bwIters = full ? 20_000 : 5_000;
                progress("ucx_perftest: tag_lat 16 B, " + latIters + " iterations");
                ResultRow lat = machine.guard(() -> PerfTest.run(exe, "tag_lat", 16, latIters, 20, Map.of()),
                        this::progress);
                progress("ucx_perftest: tag_lat -> " + describe(lat));
                report.results.add(lat);
                // UCX's defaults send 64 KiB by rendezvous; without RDMA devices the transport sets
                // UCX_RNDV_THRESH=inf (eager only), so the raw limit of its own protocol is the second run.
                // The third is the raw limit of ucx-tcp, with the transport's settings (ucx_context.c).
                for (Map<String, String> settings : List.of(Map.<String, String>of(),
                        Map.of("UCX_RNDV_THRESH", "inf"),
                        Map.of("UCX_TLS", "tcp", "UCX_RNDV_THRESH", "inf", "UCX_TCP_RX_SEG_SIZE", "256k"))) {
                    progress("ucx_perftest: tag_bw 64 KiB, " + bwIters + " iterations " + settings);
                    ResultRow bw = machine.guard(() -> PerfTest.run(exe, "tag_bw", 65536, bwIters, 20, settings),
                            this::progress);
                    progress("ucx_perftest: tag_bw -> " + describe(bw));
                    report.results.add(bw);
                }
            }
        }
        progress("writing " + out.toAbsolutePath());
        report.totalSeconds = (System.nanoTime() - startNanos) / 1e9;
        report.machine = machine;
        report.write(out);
        progress("done: " + out.resolve("results.md").toAbsolutePath());
        System.exit(0);
    }

    private static String describe(ResultRow r) {
        if (!r.ok()) {
            return r.get("status") + " (" + r.get("note") + ")";
        }
        if (!r.get("p50_us").isEmpty()) {
            return "round trip " + r.get("p50_us") + " us (" + r.get("note") + ")";
        }
        return r.get("mb_per_s") + " MB/s (" + r.get("note") + ")";
    }

    /**
     * A JVM running {@link SystemBenchmark} with the given arguments on this JVM's class path, with the
     * transport's environment ({@code UCX_TLS=tcp} for ucx-tcp) and without the variables {@code notInherited}
     * of this JVM: a client started with its own transport's environment does not pass it on to the server of
     * another transport ({@code UCX_TLS=tcp} would make a ucx server ucx-tcp). Its standard error goes to ours.
     */
    static ChildProcess startJava(List<String> jvmOptions, List<String> args, NettyTransport transport,
                                  Set<String> notInherited) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(JavaCommand.of(SystemBenchmark.class).jvmOptions(jvmOptions)
                .args(args).toList()).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().keySet().removeAll(notInherited);
        builder.environment().putAll(transport.environment());
        return ChildProcess.start(builder);
    }

    /** The benchmarks one client process runs, in order. */
    static List<BenchClient.Spec> plan(Mode mode) {
        List<BenchClient.Spec> specs = new ArrayList<>();
        if (mode == Mode.SUSTAINED) {
            addThroughput(specs, mode, new int[] {256}, new int[] {1});
            addThroughput(specs, mode, new int[] {1024, 65536}, new int[] {8, 16});
            return specs;
        }
        if (mode == Mode.STREAMS) {
            addThroughput(specs, mode, new int[] {1024, 65536}, new int[] {1, 4});
            return specs;
        }
        if (mode == Mode.QUICK) {
            specs.add(new BenchClient.Spec("pingpong", 16, 1, 20_000));
            specs.add(new BenchClient.Spec("pingpong", 1024, 1, 10_000));
            specs.add(new BenchClient.Spec("pingpong", 65536, 1, 2_000));
            addThroughput(specs, mode, new int[] {16, 1024, 65536}, new int[] {1, 4});
            return specs;
        }
        List<Integer> sweep = new ArrayList<>();
        for (int size = 16; size <= 1 << 20; size *= 4) {
            sweep.add(size);
        }
        for (int size : sweep) {
            int ops = size <= 1024 ? 100_000 : size <= 16384 ? 50_000 : size <= 65536 ? 10_000
                    : size <= 262144 ? 4_000 : 2_000;
            specs.add(new BenchClient.Spec("pingpong", size, 1, ops));
        }
        for (int size : sweep) {
            specs.add(new BenchClient.Spec("throughput", size, 1, maxMessages(size, mode)));
        }
        addThroughput(specs, mode, new int[] {16, 1024, 65536}, new int[] {2, 4, 8, 16});
        return specs;
    }

    /**
     * Adds a throughput benchmark for each size and each connection count, sizes outermost, each with as many
     * messages as {@link #maxMessages} allows.
     */
    private static void addThroughput(List<BenchClient.Spec> specs, Mode mode, int[] sizes, int[] connectionCounts) {
        for (int size : sizes) {
            for (int conns : connectionCounts) {
                specs.add(new BenchClient.Spec("throughput", size, conns, maxMessages(size, mode)));
            }
        }
    }

    /**
     * The specs split by kind, in order: each kind runs in client and server JVMs of its own, as JMH
     * forks per benchmark. In one JVM the JIT threw away the write path it had compiled for the
     * ping-pongs (one message per flush) when the throughput runs began, and the first of them (16 B)
     * was measured while it recompiled: 123-214 MB/s over UCX where later ones reached 242-250.
     */
    static List<List<BenchClient.Spec>> byKind(List<BenchClient.Spec> specs) {
        Map<String, List<BenchClient.Spec>> kinds = new LinkedHashMap<>();
        specs.forEach(s -> kinds.computeIfAbsent(s.kind, k -> new ArrayList<>()).add(s));
        return new ArrayList<>(kinds.values());
    }

    /**
     * Upper bound of messages per throughput measurement (fewer are sent if that would take too long);
     * its tenth is the warm-up.
     */
    static int maxMessages(int size, Mode mode) {
        return (int) Math.max(1000, Math.min(mode.maxMessages, mode.maxBytes / size));
    }

    /** What a run measures, how often, and for how long. */
    enum Mode {
        QUICK("quick", 1, 20, 1.5, 1L << 30, 4_000_000, true, "benchmarks", NettyTransport.values()),
        /*
         * 100 million messages at most, so that the tenth of them that warms up the smallest sizes runs
         * long enough (about a second) for the JIT to finish compiling the write path on two busy cores.
         * 16 GiB at most, so that a measurement over TCP (4-8 GB/s) ends by the 2 s target rather than
         * by its size: with 4 GiB it covered about the first second of the connections, while TCP's
         * receive-buffer autotuning was still growing the sockets (1-3 s), and two runs of the same
         * multi-connection case differed by up to 20%.
         */
        FULL("full", 3, 60, 2.0, 16L << 30, 100_000_000, true, "benchmarks", NettyTransport.values()),
        /**
         * The quick throughput cases measured past the fresh JVMs' warm-up: a quick 64 KiB case lasts 0.2-0.3 s,
         * about half of it while both JVMs still compile (docs/benchmarks/short-path, "Throughput against the
         * issue's today"); here a warm-up of up to 1.6 GiB comes first and the measurement lasts about 3 s.
         */
        STREAMS("streams", 5, 60, 3.0, 16L << 30, 100_000_000, false, "benchmarks-streams",
                NettyTransport.values()),
        /**
         * Throughput over TCP where epoll and the TCP data path are both bound by the kernel's TCP
         * work (256 B on one connection, 1 KiB and 64 KiB on 8 and 16), where single full-mode runs
         * scatter by 15% either way: measured for 8 s after a warm-up of about a second, 5 runs.
         */
        SUSTAINED("sustained", 5, 60, 8.0, 40L << 30, 400_000_000, false, "benchmarks-sustained",
                NettyTransport.EPOLL, NettyTransport.UCX_TCP);

        final String id;
        final int runs;
        final double limitSeconds;
        final double targetSeconds;
        final long maxBytes;
        final long maxMessages;
        /** Whether {@code ucx_perftest} runs too (unless {@code --no-perftest}). */
        final boolean perftest;
        final Path out;
        final List<NettyTransport> transports;

        Mode(String id, int runs, double limitSeconds, double targetSeconds, long maxBytes, long maxMessages,
             boolean perftest, String dir, NettyTransport... transports) {
            this.id = id;
            this.runs = runs;
            this.limitSeconds = limitSeconds;
            this.targetSeconds = targetSeconds;
            this.maxBytes = maxBytes;
            this.maxMessages = maxMessages;
            this.perftest = perftest;
            this.out = Paths.get("docs", dir);
            this.transports = List.of(transports);
        }
    }

    private void runClient(TransportPair t, int run, int runs, List<BenchClient.Spec> specs, double limitSeconds,
                           double targetSeconds, boolean lanes, Report report) throws Exception {
        List<String> args = new ArrayList<>(List.of("--client", t.id(), String.valueOf(run),
                String.valueOf(limitSeconds), String.valueOf(targetSeconds), String.valueOf(lanes),
                String.valueOf(machine.reference())));
        specs.forEach(s -> args.add(s.toString()));
        progress(String.format(Locale.ROOT, "%s run %d/%d: starting client and server processes%s", t.id(), run, runs,
                t.settings()));
        List<String> options = new ArrayList<>(CHILD_JVM_OPTIONS);
        options.addAll(t.clientJvmOptions());
        ChildProcess client = startJava(options, args, t.client(), Set.of());
        long deadline = System.nanoTime()
                + TimeUnit.SECONDS.toNanos((long) (specs.size() * (limitSeconds * 2 + 20) + 60));
        int received = 0;
        boolean timedOut = false;
        while (true) {
            String line;
            try {
                line = client.lines().next(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                timedOut = true;
                progress(t.id() + " run " + run + ": client process timed out, killing it and its server");
                client.kill();
                break;
            }
            if (line == null) {
                break;
            }
            if (ResultRow.isLine(line)) {
                ResultRow r = BenchResults.COLUMNS.fromLine(line);
                report.results.add(r);
                machine.observe(r.number("machine_mb_per_s"));
                received++;
                if (!r.ok()) {
                    progress(String.format(Locale.ROOT, "%s run %d/%d: %s %s x %s: %s %s", t.id(), run, runs,
                            r.get("benchmark"), ByteSizes.label(r.integer("size_bytes")), r.get("connections"),
                            r.get("status"), r.get("note")));
                }
            } else if (line.startsWith("PROGRESS ")) {
                progress(String.format(Locale.ROOT, "%s run %d/%d [%d/%d]: %s", t.id(), run, runs, received + 1,
                        specs.size(), line.substring(9).trim()));
            } else if (line.startsWith("LANES ")) {
                String lane = line.substring(6);
                report.lanes.computeIfAbsent(t.id(), k -> new ArrayList<>()).add(lane);
                progress(t.id() + " uses: " + lane);
            } else if (line.startsWith("SKIP ")) {
                report.skipped.put(t.id(), line.substring(5));
                progress(t.id() + ": skipped, not available here: " + line.substring(5));
            } else {
                System.out.println("    " + t.id() + "> " + line);
            }
        }
        if (!timedOut) {
            client.waitFor(10);
            client.kill();
            if (received < specs.size() && !report.skipped.containsKey(t.id())) {
                progress(String.format(Locale.ROOT, "%s run %d: client process exited (%s) after %d of %d benchmarks",
                        t.id(), run, client.isAlive() ? "?" : String.valueOf(client.exitValue()), received,
                        specs.size()));
            }
        }
        if (received < specs.size() && !report.skipped.containsKey(t.id())) {
            for (int i = received; i < specs.size(); i++) {
                BenchClient.Spec s = specs.get(i);
                report.results.add(BenchResults.row(t.id(), s.kind, s.size, s.connections, run)
                        .put("status", timedOut ? "timeout" : "error")
                        .put("note", "client process " + (timedOut ? "timed out" : "ended early")));
            }
        }
    }
}
