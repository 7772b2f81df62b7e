/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.ChildProcess;
import io.github.nettyucx.benchmarks.core.OutputLines;
import io.github.nettyucx.benchmarks.core.ResultRow;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs {@code ucx_perftest} (raw UCX, no JVM, no Netty) between two processes on 127.0.0.1 as
 * the limit the transport can approach. {@code tag_lat} reports one-way latency (half a round
 * trip), so its typical value is doubled to compare with the ping-pong round trips.
 */
final class PerfTest {
    private PerfTest() {
    }

    static String find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            File f = new File(dir, "ucx_perftest");
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    /** A ucx_perftest process with the given environment, its standard error merged into its output. */
    private static ChildProcess start(List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        return ChildProcess.start(builder);
    }

    /**
     * Tries {@code UCX_TLS=sm,self} first, then UCX's default selection, unless {@code settings} choose
     * {@code UCX_TLS} themselves; {@code settings} are UCX variables for both processes (for example the
     * transport's own choices), or empty.
     */
    static ResultRow run(String exe, String test, int size, int iterations, int timeoutSeconds,
                         Map<String, String> settings) {
        ResultRow r = null;
        String[] choices = settings.containsKey("UCX_TLS") ? new String[] {null} : new String[] {"sm,self", null};
        for (String tls : choices) {
            r = runOnce(exe, test, size, iterations, timeoutSeconds, tls, settings);
            if (r.ok()) {
                return r;
            }
        }
        return r;
    }

    private static ResultRow runOnce(String exe, String test, int size, int iterations, int timeoutSeconds,
                                  String tls, Map<String, String> settings) {
        ResultRow r = BenchResults.row("ucx_perftest", test, size, 1, 1);
        Map<String, String> env = new TreeMap<>(settings);
        if (tls != null) {
            env.put("UCX_TLS", tls);
        }
        StringJoiner described = new StringJoiner(", ");
        if (!env.containsKey("UCX_TLS")) {
            described.add("UCX_TLS default");
        }
        env.forEach((name, value) -> described.add(name + '=' + value));
        String tlsText = described.toString();
        ChildProcess server = null;
        ChildProcess client = null;
        try {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            List<String> common = List.of("-p", String.valueOf(port), "-t", test, "-s", String.valueOf(size),
                    "-n", String.valueOf(iterations));
            List<String> serverCmd = new ArrayList<>(List.of(exe));
            serverCmd.addAll(common);
            server = start(serverCmd, env);
            Thread.sleep(700);
            List<String> clientCmd = new ArrayList<>(List.of(exe, "127.0.0.1"));
            clientCmd.addAll(common);
            long t0 = System.nanoTime();
            client = start(clientCmd, env);
            OutputLines output = client.lines();
            boolean finished = client.waitFor(timeoutSeconds);
            r.put("elapsed_s", (System.nanoTime() - t0) / 1e9);
            if (!finished) {
                return r.put("status", "n/a").put("note", tlsText + ": timed out after " + timeoutSeconds + " s");
            }
            List<String> lines = new ArrayList<>();
            try {
                String line;
                while ((line = output.next(2, TimeUnit.SECONDS)) != null) {
                    lines.add(line);
                }
            } catch (TimeoutException e) {
                // The process ended; whatever it wrote has been read.
            }
            String fin = null;
            for (String line : lines) {
                if (line.trim().startsWith("Final:")) {
                    fin = line.trim();
                }
            }
            if (fin == null) {
                String last = lines.isEmpty() ? "no output" : lines.get(lines.size() - 1).trim();
                return r.put("status", "n/a").put("note", tlsText + ": no 'Final:' summary line (exit "
                        + client.exitValue() + ", last line: " + last + ")");
            }
            // Final: <iterations> <lat 50%> <lat avg> <lat overall> <bw avg> <bw overall> <rate avg> <rate overall>
            String[] f = fin.substring("Final:".length()).trim().split("\\s+");
            if (f.length < 8) {
                return r.put("status", "n/a").put("note", tlsText + ": unexpected summary: " + fin);
            }
            r.put("ops", Long.parseLong(f[0]));
            if (test.endsWith("_lat")) {
                r.put("p50_us", 2 * Double.parseDouble(f[1]))
                        .put("mean_us", 2 * Double.parseDouble(f[2]))
                        .put("note", tlsText + "; round trip = 2 x one-way latency");
            } else {
                r.put("mb_per_s", Double.parseDouble(f[5]) * 1.048576)
                        .put("msgs_per_s", Double.parseDouble(f[7]))
                        .put("note", tlsText + "; ucx_perftest MB = 2^20 bytes, converted to 10^6");
            }
            return r;
        } catch (Exception e) {
            return r.put("status", "n/a").put("note", tlsText + ": " + e);
        } finally {
            if (client != null) {
                client.kill();
            }
            if (server != null) {
                try {
                    if (!server.waitFor(3)) {
                        server.kill();
                    }
                } catch (InterruptedException e) {
                    server.kill();
                }
            }
        }
    }
}
