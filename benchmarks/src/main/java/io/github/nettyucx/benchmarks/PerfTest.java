/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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

    /** Tries {@code UCX_TLS=sm,self} first, then UCX's default selection. */
    static Result run(String exe, String test, int size, int iterations, int timeoutSeconds) {
        Result r = null;
        for (String tls : new String[] {"sm,self", null}) {
            r = runOnce(exe, test, size, iterations, timeoutSeconds, tls);
            if (r.ok()) {
                return r;
            }
        }
        return r;
    }

    private static Result runOnce(String exe, String test, int size, int iterations, int timeoutSeconds,
                                  String tls) {
        Result r = new Result("ucx_perftest", test, size, 1, 1);
        String tlsText = tls == null ? "UCX_TLS default" : "UCX_TLS=" + tls;
        Map<String, String> env = tls == null ? Collections.emptyMap() : Map.of("UCX_TLS", tls);
        Process server = null;
        Process client = null;
        try {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            List<String> common = List.of("-p", String.valueOf(port), "-t", test, "-s", String.valueOf(size),
                    "-n", String.valueOf(iterations));
            List<String> serverCmd = new ArrayList<>(List.of(exe));
            serverCmd.addAll(common);
            server = Children.start(serverCmd, env, false);
            Thread.sleep(700);
            List<String> clientCmd = new ArrayList<>(List.of(exe, "127.0.0.1"));
            clientCmd.addAll(common);
            long t0 = System.nanoTime();
            client = Children.start(clientCmd, env, false);
            final Process c = client;
            List<String> lines = Collections.synchronizedList(new ArrayList<>());
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (Exception ignored) {
                    // process killed
                }
            });
            reader.setDaemon(true);
            reader.start();
            boolean finished = client.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            reader.join(2000);
            r.put("elapsed_s", (System.nanoTime() - t0) / 1e9);
            if (!finished) {
                return r.put("status", "n/a").put("note", tlsText + ": timed out after " + timeoutSeconds + " s");
            }
            String fin = null;
            synchronized (lines) {
                for (String line : lines) {
                    if (line.trim().startsWith("Final:")) {
                        fin = line.trim();
                    }
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
                Children.kill(client);
            }
            if (server != null) {
                try {
                    if (!server.waitFor(3, TimeUnit.SECONDS)) {
                        Children.kill(server);
                    }
                } catch (InterruptedException e) {
                    Children.kill(server);
                }
            }
        }
    }
}
