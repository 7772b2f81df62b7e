/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.util.Locale;

/**
 * When a loop that waits {@link WaitStrategy#ADAPTIVE} yields its core from the first empty spin round, every
 * round, while {@link AdaptiveSpin#yieldAtOnce()} says the thread it waits for needs that core. Yielding at once
 * shortens round trips while threads share a core; where a core is free, it keeps two loops that once shared one
 * sharing it, where a spin that yields later lets the scheduler move one away (docs/settings.md#adaptive-waiting).
 */
enum YieldAtOnce {
    /** Always: {@code -Dio.github.nettyucx.adaptiveYieldAtOnce=true}, and a JVM allowed one CPU. */
    ALWAYS {
        @Override
        boolean applies(long now) {
            return true;
        }
    },
    /** Never: {@code -Dio.github.nettyucx.adaptiveYieldAtOnce=false}, and the default with several CPUs. */
    NEVER {
        @Override
        boolean applies(long now) {
            return false;
        }
    },
    /**
     * While more threads want the host's CPUs than it has ({@link CpuDemand}): {@code
     * -Dio.github.nettyucx.adaptiveYieldAtOnce=auto}. Not the default: beside busy processes, which make the demand
     * excessive too, a yield hands the core to a thread that brings no work, for a whole slice.
     */
    WHILE_CPUS_OVERSUBSCRIBED {
        @Override
        boolean applies(long now) {
            return Host.DEMAND.excessive(now);
        }
    };

    /** The process's one view of the host's CPUs, made on first use: it needs the native library. */
    private static final class Host {
        static final CpuDemand DEMAND =
                new CpuDemand(UcxNative::hostRunnableThreads, UcxNative.hostOnlineCpus(), System.nanoTime());
    }

    /** Whether a spin that starts at {@code now} yields at once. */
    abstract boolean applies(long now);

    /**
     * The rule the option {@code value} names, for a JVM allowed {@code cpus} CPUs: {@code true} (or {@code yes},
     * {@code 1}, as Netty's boolean properties), {@code false} ({@code no}, {@code 0}), {@code auto}, or the default
     * when unset (null) or anything else.
     */
    static YieldAtOnce of(String value, int cpus) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        switch (v) {
            case "true":
            case "yes":
            case "1":
                return ALWAYS;
            case "false":
            case "no":
            case "0":
                return NEVER;
            case "auto":
                return WHILE_CPUS_OVERSUBSCRIBED;
            default:
                return defaultFor(cpus);
        }
    }

    /** With one CPU the loops and the threads they wait for always share it; with more, never. */
    static YieldAtOnce defaultFor(int cpus) {
        return cpus == 1 ? ALWAYS : NEVER;
    }
}
