/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What a connection may leave behind in this process, measured at one moment: open file descriptors, the
 * transport's native connections, the memory the channel's buffer allocator holds in use, and the process RSS.
 * Comparing a snapshot taken before connections with one taken after they closed tells whether they leaked.
 */
final class ResourceSnapshot {
    final int openFds;
    /** What the counted descriptors point at ("socket:[123]", "anon_inode:[eventfd]", a path), sorted. */
    final List<String> fdTargets;
    final long nativeConnections;
    final long allocatorUsedBytes;
    final long rssBytes;

    private ResourceSnapshot(List<String> fdTargets, long nativeConnections, long allocatorUsedBytes, long rssBytes) {
        this.openFds = fdTargets.size();
        this.fdTargets = fdTargets;
        this.nativeConnections = nativeConnections;
        this.allocatorUsedBytes = allocatorUsedBytes;
        this.rssBytes = rssBytes;
    }

    /**
     * Takes a snapshot; {@code allocator} is the one the channels use (its used memory is read through
     * {@link ByteBufAllocatorMetricProvider}, so a transport-specific allocator is covered as soon as channels
     * use it).
     */
    static ResourceSnapshot take(ByteBufAllocator allocator) {
        return new ResourceSnapshot(fdTargets(), UcxNative.connectionsAllocated(), usedBytes(allocator), rssBytes());
    }

    /** Open file descriptors of this process, as counted by {@link #fdTargets()}. */
    static int openFds() {
        return fdTargets().size();
    }

    /** The targets of this process's open descriptors, as {@link OpenDescriptors#targets()} counts them. */
    static List<String> fdTargets() {
        return OpenDescriptors.targets();
    }

    /** The descriptor targets open now that were not in {@code before} (counting duplicates). */
    List<String> fdsOpenedSince(ResourceSnapshot before) {
        List<String> opened = new ArrayList<>(fdTargets);
        for (String target : before.fdTargets) {
            opened.remove(target);
        }
        return opened;
    }

    /** Resident set size of this process, from /proc/self/status. */
    static long rssBytes() {
        return statusKiB(Paths.get("/proc/self/status"), "VmRSS:") * 1024;
    }

    /** A "Name:   123 kB" line of a /proc/PID/status file, in KiB. */
    static long statusKiB(Path status, String field) {
        try {
            List<String> lines = Files.readAllLines(status);
            for (String line : lines) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException(field + " not found in " + status);
    }

    static long usedBytes(ByteBufAllocator allocator) {
        if (!(allocator instanceof ByteBufAllocatorMetricProvider)) {
            throw new IllegalArgumentException(allocator + " reports no metrics");
        }
        ByteBufAllocatorMetric metric = ((ByteBufAllocatorMetricProvider) allocator).metric();
        return metric.usedDirectMemory() + metric.usedHeapMemory();
    }

    /**
     * Waits until {@code condition} holds, up to {@code seconds}; returns whether it did. Native connections
     * are freed by their event loop once UCX has finished with them, a little after the channel closed.
     */
    static boolean await(BooleanSupplier condition, long seconds) throws InterruptedException {
        return Await.until(condition::getAsBoolean, seconds, TimeUnit.SECONDS);
    }

    @Override
    public String toString() {
        return "fds=" + openFds + ", native connections=" + nativeConnections + ", allocator used="
                + allocatorUsedBytes + " B, RSS=" + (rssBytes >> 20) + " MiB";
    }
}
