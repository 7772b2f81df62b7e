/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import io.github.nettyucx.transport.Ucx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What a benchmark report says about the machine it ran on. Numbers from a shared machine are only
 * comparable within one run; these facts let a reader tell which machine and how busy it was.
 */
public final class MachineFacts {
    private static final Path CPU_INFO = Paths.get("/proc/cpuinfo");
    private static final Path LOAD_AVERAGE = Paths.get("/proc/loadavg");

    private MachineFacts() {
    }

    /** The CPU model from /proc/cpuinfo; the architecture where that cannot be read. */
    public static String cpuModel() {
        try {
            for (String line : Files.readAllLines(CPU_INFO, StandardCharsets.US_ASCII)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or not readable: the architecture is the next best description.
        }
        return System.getProperty("os.arch");
    }

    /** The 1, 5 and 15 minute load averages as {@code "0.52 0.61 0.70"}; {@code "unknown"} off Linux. */
    public static String loadAverage() {
        try {
            String[] parts = new String(Files.readAllBytes(LOAD_AVERAGE), StandardCharsets.US_ASCII).trim()
                    .split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * Whether the 1-minute figure of any of these {@link #loadAverage()}s (typically taken before and after a
     * run) is above the number of cores: then the processes of a benchmark waited for CPUs, and its latencies
     * include that wait. An unknown load counts as not overloaded.
     */
    public static boolean overloaded(String... loadAverages) {
        int cores = Runtime.getRuntime().availableProcessors();
        for (String load : loadAverages) {
            try {
                if (Double.parseDouble(load.split(" ")[0]) > cores) {
                    return true;
                }
            } catch (RuntimeException e) {
                // Unknown: says nothing about the load.
            }
        }
        return false;
    }

    /** The version of the libucp the transport loaded, or why there is none. */
    public static String ucxVersion() {
        try {
            return Ucx.isAvailable() ? Ucx.ucxVersion() : "not available (" + Ucx.unavailabilityCause() + ")";
        } catch (RuntimeException | LinkageError e) {
            return "unknown (" + e + ")";
        }
    }
}
