/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What else runs on the machine while a benchmark measures: the other tenants of a shared host. A benchmark starts
 * them before its first server and stops them when it ends ({@link #close()}), so that every transport of every run
 * measures beside the same neighbours. The kinds, as a benchmark's {@code --neighbours} names them:
 * <ul>
 *   <li>{@code none}: nothing (the default);</li>
 *   <li>{@code busy:N}: N processes that each keep a core busy with a shell loop that never sleeps;</li>
 *   <li>{@code jvm}: a third JVM ({@link BusyJvm}) that keeps every core busy with work of its own, with its
 *       garbage collector and JIT compiler;</li>
 *   <li>{@code quota:C}: no process, but this JVM and every process it starts from now on run in a cgroup limited
 *       to C CPUs' worth of time (root and a writable cgroup {@code cpu} controller, v1 or v2, needed).</li>
 * </ul>
 */
public final class Neighbours implements AutoCloseable {
    private static final long STOP_SECONDS = 5;
    private static final Path CGROUP_V1_CPU = Paths.get("/sys/fs/cgroup/cpu");
    private static final Path CGROUP_V2 = Paths.get("/sys/fs/cgroup");
    private static final long QUOTA_PERIOD_MICROS = 100_000;

    private final String spec;
    private final List<ChildProcess> processes;
    /** The cgroup this JVM moved into for {@code quota:C}, and the one it came from; null otherwise. */
    private final Path cgroup;
    private final Path formerCgroup;

    private Neighbours(String spec, List<ChildProcess> processes, Path cgroup, Path formerCgroup) {
        this.spec = spec;
        this.processes = processes;
        this.cgroup = cgroup;
        this.formerCgroup = formerCgroup;
    }

    /** Checks a {@code --neighbours} value without starting anything; throws IllegalArgumentException if bad. */
    public static void check(String spec) {
        parse(spec);
    }

    /** Starts the neighbours {@code spec} names. */
    public static Neighbours start(String spec) throws IOException {
        String[] kind = parse(spec);
        switch (kind[0]) {
            case "busy":
                List<ChildProcess> loops = new ArrayList<>();
                for (int i = 0; i < Integer.parseInt(kind[1]); i++) {
                    loops.add(ChildProcess.start(new ProcessBuilder("sh", "-c", "while :; do :; done")
                            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)));
                }
                return new Neighbours(spec, loops, null, null);
            case "jvm":
                ChildProcess jvm = ChildProcess.start(new ProcessBuilder(JavaCommand.of(BusyJvm.class)
                        .jvmOptions(List.of("-Xmx512m")).toList()).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD));
                return new Neighbours(spec, List.of(jvm), null, null);
            case "quota":
                return quota(spec, Double.parseDouble(kind[1]));
            default:
                return new Neighbours("none", List.of(), null, null);
        }
    }

    private static String[] parse(String spec) {
        String s = spec == null ? "none" : spec.trim().toLowerCase(Locale.ROOT);
        String[] kind = s.split(":", 2);
        try {
            switch (kind[0]) {
                case "none":
                case "jvm":
                    if (kind.length == 1) {
                        return kind;
                    }
                    break;
                case "busy":
                    if (kind.length == 2 && Integer.parseInt(kind[1]) > 0) {
                        return kind;
                    }
                    break;
                case "quota":
                    if (kind.length == 2 && Double.parseDouble(kind[1]) > 0) {
                        return kind;
                    }
                    break;
                default:
                    break;
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        throw new IllegalArgumentException("neighbours '" + spec + "': use none, busy:N (N busy processes), jvm (a "
                + "busy JVM) or quota:C (this benchmark's processes limited to C CPUs)");
    }

    /**
     * Moves this JVM into a new cgroup with a CPU quota; the processes it starts from now on are born there. Only
     * this JVM moves: processes started before stay where they are.
     */
    private static Neighbours quota(String spec, double cpus) throws IOException {
        long quotaMicros = Math.round(cpus * QUOTA_PERIOD_MICROS);
        String name = "netty-ucx-bench-" + ProcessHandle.current().pid();
        Path group;
        Path former;
        if (Files.isWritable(CGROUP_V1_CPU.resolve("cgroup.procs"))) {
            former = CGROUP_V1_CPU;
            group = Files.createDirectories(CGROUP_V1_CPU.resolve(name));
            write(group.resolve("cpu.cfs_period_us"), String.valueOf(QUOTA_PERIOD_MICROS));
            write(group.resolve("cpu.cfs_quota_us"), String.valueOf(quotaMicros));
        } else if (Files.isWritable(CGROUP_V2.resolve("cgroup.procs"))
                && read(CGROUP_V2.resolve("cgroup.controllers")).contains("cpu")) {
            former = CGROUP_V2;
            write(CGROUP_V2.resolve("cgroup.subtree_control"), "+cpu");
            group = Files.createDirectories(CGROUP_V2.resolve(name));
            write(group.resolve("cpu.max"), quotaMicros + " " + QUOTA_PERIOD_MICROS);
        } else {
            throw new IOException("quota:" + cpus + " needs a writable cgroup cpu controller (/sys/fs/cgroup/cpu or "
                    + "cgroup v2 with cpu): run as root on a host that mounts one");
        }
        write(group.resolve("cgroup.procs"), String.valueOf(ProcessHandle.current().pid()));
        return new Neighbours(spec, List.of(), group, former);
    }

    private static void write(Path file, String value) throws IOException {
        Files.write(file, value.getBytes(StandardCharsets.US_ASCII));
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.US_ASCII) : "";
    }

    /** The spec as given, for reports: {@code none}, {@code busy:2}, {@code jvm} or {@code quota:1}. */
    public String spec() {
        return spec;
    }

    /** A sentence for a report. */
    public String describe() {
        String[] kind = parse(spec);
        switch (kind[0]) {
            case "busy":
                return kind[1] + " busy process(es) (shell loops that never sleep) beside the benchmark";
            case "jvm":
                return "a third JVM keeping every core busy with work of its own (BusyJvm) beside the benchmark";
            case "quota":
                return "the benchmark's JVMs in one cgroup limited to " + kind[1] + " CPU(s) of time";
            default:
                return "no neighbours";
        }
    }

    /** Stops the neighbour processes; a quota's JVM moves back to its former cgroup and removes the new one. */
    @Override
    public void close() {
        for (ChildProcess p : processes) {
            p.terminate(STOP_SECONDS);
        }
        if (cgroup != null) {
            try {
                write(formerCgroup.resolve("cgroup.procs"), String.valueOf(ProcessHandle.current().pid()));
                Files.deleteIfExists(cgroup);
            } catch (IOException e) {
                // Children still alive keep the cgroup; it goes when they do and someone removes it.
                System.err.println("could not remove cgroup " + cgroup + ": " + e.getMessage());
            }
        }
    }
}
