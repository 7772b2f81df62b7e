/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.benchmarks.core.ChildProcess;
import io.github.nettyucx.benchmarks.core.CommandLines;
import io.github.nettyucx.benchmarks.core.JavaCommand;
import io.github.nettyucx.benchmarks.core.MachineFacts;
import io.github.nettyucx.benchmarks.core.Neighbours;
import io.github.nettyucx.kvstore.KvStoreMain;
import io.github.nettyucx.ycsb.KvStoreClient;
import io.github.nettyucx.ycsb.YcsbOutput;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * bin/bench ycsb: YCSB's own client against a kvstore server, over each transport, side by side.
 * One server JVM per transport, all started (and loaded) first; then, run after run, each (workload, threads)
 * combination runs over every transport in turn, so slow drift of a shared machine hits all transports alike,
 * in the given order in odd runs and the reverse in even runs, so none always goes first. Each run is a fresh
 * YCSB client JVM bounded by time (maxexecutiontime).
 */
public final class YcsbBenchmark {
    private static final Pattern LISTENING = Pattern.compile("listening on [^ ]*:(\\d+) over");
    /** How long a server or YCSB client gets to end after SIGTERM before it is killed. */
    private static final long STOP_SECONDS = 10;

    private YcsbBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o = new BenchOptions();
        // A bad transport name fails here, before any run.
        if (!CommandLines.parse("bin/bench ycsb", o, args, () -> o.transports.forEach(TransportVariant::of))) {
            return;
        }
        String command = System.getProperty("bench.command", "YcsbBenchmark " + String.join(" ", args));
        String loadBefore = MachineFacts.loadAverage();
        long started = System.nanoTime();
        int total = o.runs * o.workloads.size() * o.threads.size() * o.transports.size();
        System.out.printf(Locale.ROOT, "YCSB benchmark (%s): workloads %s, threads %s, transports %s, %d s per run, "
                        + "%d records, %d run(s): %d YCSB runs%n", o.mode, o.workloads, o.threads, o.transports,
                o.seconds, o.records, o.runs, total);

        Map<String, Integer> ports = new LinkedHashMap<>();
        List<ChildProcess> servers = new ArrayList<>();
        File tmp = Files.createTempDirectory("bench-ycsb").toFile();
        List<RunResult> results = new ArrayList<>();
        Neighbours neighbours = Neighbours.start(o.neighbours);
        System.out.println("  beside: " + neighbours.describe());
        try {
            for (String t : o.transports) {
                File log = new File(tmp, "server-" + t + ".log");
                TransportVariant v = TransportVariant.of(t);
                ChildProcess p = startJvm(v, KvStoreMain.class.getName(), List.of("server", "--port", "0",
                        "--transport", v.transport().id(), "--threads", String.valueOf(o.serverThreads)), log);
                servers.add(p);
                ports.put(t, awaitPort(p, log, t));
                System.out.printf(Locale.ROOT, "  %-8s server on port %d; loading %,d records ...%n", t, ports.get(t),
                        o.records);
                YcsbOutput load = ycsb(o, tmp, t, ports.get(t), "-load", "a", 4);
                if (load.returned("INSERT", "OK") != o.records) {
                    throw new IllegalStateException("loading over " + t + " failed: " + load.returns("INSERT"));
                }
            }
            int done = 0;
            for (int run = 1; run <= o.runs; run++) {
                for (String w : o.workloads) {
                    for (int threads : o.threads) {
                        List<String> order = o.transportsInRun(run);
                        for (int i = 0; i < order.size(); i++) {
                            String t = order.get(i);
                            YcsbOutput out = ycsb(o, tmp, t, ports.get(t), "-t", w, threads);
                            results.add(new RunResult(w, threads, t, run, i + 1, out));
                            done++;
                            System.out.printf(Locale.ROOT, "  [%d/%d] run %d/%d, workload %s, %2d threads, %-9s "
                                            + "%,10.0f ops/s (steady %,10.0f), READ p99 %,7.0f us, UPDATE p99 %s%s%n",
                                    done, total, run, o.runs, w.toUpperCase(Locale.ROOT), threads, t,
                                    out.throughput(), out.steadyThroughput(o.warmupSeconds()),
                                    out.value("READ", "99thPercentileLatency(us)"),
                                    microseconds(out.value("UPDATE", "99thPercentileLatency(us)")), failures(out));
                        }
                    }
                }
            }
        } finally {
            servers.forEach(server -> server.terminate(STOP_SECONDS));
            neighbours.close();
        }
        String loadAfter = MachineFacts.loadAverage();
        new BenchReport(o, command, neighbours.describe(), results, loadBefore, loadAfter,
                (System.nanoTime() - started) / 1e9).write(o.out);
        System.out.println("results: " + o.out.resolve("results.md") + " (CSV and PNG charts beside it)");
    }

    private static String microseconds(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f us", value);
    }

    private static String failures(YcsbOutput out) {
        StringBuilder sb = new StringBuilder();
        for (String op : out.operations()) {
            for (Map.Entry<String, Long> e : out.returns(op).entrySet()) {
                if (!e.getKey().equals("OK")) {
                    sb.append(' ').append(op).append(' ').append(e.getKey()).append('=').append(e.getValue());
                }
            }
        }
        return sb.length() == 0 ? "" : "  FAILURES:" + sb;
    }

    private static List<String> jvmOptions(TransportVariant v) {
        List<String> options = new ArrayList<>(List.of("-Xmx1g"));
        options.addAll(v.jvmOptions());
        return options;
    }

    /**
     * A JVM of this class path for the variant, its standard output and error going to {@code output}. The
     * transport's environment ({@code UCX_TLS=tcp} for ucx-tcp) is set in the child.
     */
    private static ChildProcess startJvm(TransportVariant v, String mainClass, List<String> args, File output)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(JavaCommand.of(mainClass).jvmOptions(jvmOptions(v)).args(args)
                .toList()).redirectErrorStream(true).redirectOutput(output);
        builder.environment().putAll(v.transport().environment());
        return ChildProcess.start(builder);
    }

    /** Waits for the child to end (up to the bound) and returns its output. */
    private static String finish(ChildProcess p, File output, long timeoutSeconds)
            throws IOException, InterruptedException {
        if (!p.waitFor(timeoutSeconds)) {
            p.terminate(STOP_SECONDS);
            throw new IOException("child did not finish within " + timeoutSeconds + " s: " + read(output));
        }
        return read(output);
    }

    private static String read(File file) throws IOException {
        return new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8);
    }

    private static int awaitPort(ChildProcess p, File log, String transport) throws Exception {
        for (int i = 0; i < 600; i++) {
            String text = read(log);
            Matcher m = LISTENING.matcher(text);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("the " + transport + " server exited:\n" + text);
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the " + transport + " server did not start within 60 s");
    }

    private static YcsbOutput ycsb(BenchOptions o, File tmp, String transport, int port, String phase, String workload,
                                   int threads) throws IOException, InterruptedException {
        TransportVariant v = TransportVariant.of(transport);
        List<String> args = new ArrayList<>(Arrays.asList("-db", KvStoreClient.class.getName(), phase,
                "-P", o.workloadDir.resolve("workload" + workload).toString(),
                "-p", "kvstore.hosts=127.0.0.1:" + port, "-p", "kvstore.transport=" + v.transport().id(),
                "-p", "recordcount=" + o.records, "-threads", String.valueOf(threads)));
        for (String prop : o.ycsbProperties) {
            args.add("-p");
            args.add(prop);
        }
        if (phase.equals("-t")) {
            args.addAll(Arrays.asList("-p", "operationcount=1000000000", "-p", "maxexecutiontime=" + o.seconds,
                    "-s", "-p", "status.interval=1"));
        }
        File out = new File(tmp, "ycsb-" + transport + "-" + workload + phase + ".txt");
        ChildProcess p = startJvm(v, "site.ycsb.Client", args, out);
        String text = finish(p, out, o.seconds + 300L);
        YcsbOutput parsed = YcsbOutput.parse(text);
        if (p.exitValue() != 0 || parsed.isEmpty()) {
            throw new IllegalStateException("YCSB " + phase + " workload " + workload + " over " + transport
                    + " failed (exit " + p.exitValue() + "):\n" + text);
        }
        return parsed;
    }
}
