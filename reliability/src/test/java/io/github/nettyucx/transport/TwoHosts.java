/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two "hosts" on this machine: two network namespaces joined by a veth pair, each with its own address
 * ({@value #SUBNET}.1 and .2). What runs on them is up to the caller: {@link #start(int, Class, String...)}
 * starts any main class of the test class path in one of them, with UCX restricted to TCP over the veth
 * device, so echo, gRPC or YCSB drivers can all be placed on the two hosts. Needs root and {@code ip netns};
 * otherwise {@link #create()} skips the calling test with the reason. The namespaces are deleted on close.
 */
final class TwoHosts implements AutoCloseable {
    static final String SUBNET = "10.231.77";
    private static final String PREFIX = "nucxrel";
    private final String[] namespaces = new String[2];
    private final String[] devices = new String[2];

    private TwoHosts(String tag) {
        for (int i = 0; i < 2; i++) {
            namespaces[i] = PREFIX + tag + "h" + (i + 1);
            devices[i] = "nucx" + tag + "v" + (i + 1);
        }
    }

    /** Creates both hosts, or skips the calling test (with the reason printed) when that is impossible here. */
    static TwoHosts create() throws IOException, InterruptedException {
        if (!"root".equals(System.getProperty("user.name"))) {
            skip("not running as root (network namespaces need it)");
        }
        if (run("ip", "netns", "list") != 0) {
            skip("`ip netns` is not available");
        }
        removeStale();
        String tag = Long.toString(ProcessHandle.current().pid() % 100000);
        TwoHosts hosts = new TwoHosts(tag);
        try {
            hosts.setUp();
        } catch (IOException | RuntimeException e) {
            hosts.close();
            throw e;
        }
        return hosts;
    }

    private static void skip(String reason) {
        System.out.println("two-host tests skipped: " + reason);
        Assumptions.abort(reason);
    }

    private void setUp() throws IOException, InterruptedException {
        for (String ns : namespaces) {
            must("ip", "netns", "add", ns);
            must("ip", "-n", ns, "link", "set", "lo", "up");
        }
        must("ip", "link", "add", devices[0], "netns", namespaces[0], "type", "veth", "peer", "name", devices[1],
                "netns", namespaces[1]);
        for (int i = 0; i < 2; i++) {
            must("ip", "-n", namespaces[i], "addr", "add", address(i) + "/24", "dev", devices[i]);
            must("ip", "-n", namespaces[i], "link", "set", devices[i], "up");
        }
        for (int i = 0; i < 2; i++) {
            awaitCarrier(namespaces[i], devices[i]);
        }
    }

    /**
     * UCX only uses network devices that are up and running, and a veth end gets its carrier a moment after
     * both ends are set up: a process started before that sees only lo.
     */
    private static void awaitCarrier(String ns, String device) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Process p = new ProcessBuilder("ip", "-n", ns, "-o", "link", "show", "dev", device)
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            if (out.contains("state UP")) {
                return;
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException(device + " in " + ns + " did not come up within 10 s");
    }

    /** The address of host {@code i} (0 or 1). */
    static String address(int i) {
        return SUBNET + "." + (i + 1);
    }

    /** Starts {@code mainClass} on host {@code i}, with UCX over TCP on the veth device. */
    ChildJvm start(int i, Class<?> mainClass, String... args) throws IOException {
        return ChildJvm.builder(mainClass).name(mainClass.getSimpleName() + "@host" + (i + 1))
                .prefix("ip", "netns", "exec", namespaces[i])
                .env("UCX_TLS", "tcp")
                .env("UCX_NET_DEVICES", devices[i])
                .args(args).start();
    }

    /** Brings host {@code i}'s end of the link down: the cable is cut. */
    void cutLink(int i) throws IOException, InterruptedException {
        must("ip", "-n", namespaces[i], "link", "set", devices[i], "down");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        for (String ns : namespaces) {
            run("ip", "netns", "delete", ns); // takes its end of the veth pair with it
        }
    }

    /** Namespaces left by a run that was killed before it could clean up. */
    private static void removeStale() throws IOException, InterruptedException {
        Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String out = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        list.waitFor(10, TimeUnit.SECONDS);
        for (String line : out.split("\n")) {
            String name = line.trim().split("\\s+")[0];
            if (name.startsWith(PREFIX)) {
                String pid = name.substring(PREFIX.length()).replaceAll("h\\d$", "");
                boolean alive = ProcessHandle.allProcesses().anyMatch(p -> Long.toString(p.pid() % 100000).equals(pid));
                if (!alive) {
                    run("ip", "netns", "delete", name);
                }
            }
        }
    }

    private static void must(String... command) throws IOException, InterruptedException {
        if (run(command) != 0) {
            throw new IOException("failed: " + String.join(" ", command));
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(command));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            return -1; // not installed
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        if (p.exitValue() != 0 && !out.isBlank()) {
            System.out.println(String.join(" ", command) + ": " + out.trim());
        }
        return p.exitValue();
    }
}
