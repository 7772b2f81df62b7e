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
        boolean applies(long now, double sliceLongShare) {
            return true;
        }
    },
    /** Never: {@code -Dio.github.nettyucx.adaptiveYieldAtOnce=false}. */
    NEVER {
        @Override
        boolean applies(long now, double sliceLongShare) {
            return false;
        }
    },
    /**
     * While more threads want the host's CPUs than it has ({@link CpuDemand}) and the loop's recent yields gave
     * its core away only briefly: the default with several CPUs, and {@code
     * -Dio.github.nettyucx.adaptiveYieldAtOnce=auto}. Busy processes beside the loop make the demand excessive
     * too, but a yield hands them the core for a whole slice and they bring no work: once
     * {@link #SLICE_LONG_YIELDS} of the loop's recent yields lasted a slice ({@link CoreContention#share()}),
     * it stops yielding at once. The threads that bring its work (the application's, the peer's loop) give
     * the core back within microseconds.
     */
    WHILE_CPUS_OVERSUBSCRIBED {
        @Override
        boolean applies(long now, double sliceLongShare) {
            return sliceLongShare < SLICE_LONG_YIELDS && Host.DEMAND.excessive(now);
        }
    };

    /**
     * The share of slice-long yields among a loop's recent ones (a moving average over about
     * {@link CoreContention#SAMPLES}) from which {@link #WHILE_CPUS_OVERSUBSCRIBED} no longer applies: an eighth,
     * three such yields in a row after brief ones.
     */
    static final double SLICE_LONG_YIELDS = 0.125;

    /** The process's one view of the host's CPUs, made on first use: it needs the native library. */
    private static final class Host {
        static final CpuDemand DEMAND =
                new CpuDemand(UcxNative::hostRunnableThreads, UcxNative.hostOnlineCpus(), System.nanoTime());
    }

    /**
     * Whether a spin that starts at {@code now} yields at once, when {@code sliceLongShare} of the loop's recent
     * yields lasted a scheduler slice.
     */
    abstract boolean applies(long now, double sliceLongShare);

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

    /**
     * With one CPU the loops and the threads they wait for always share it; with more, while they are
     * oversubscribed by threads that bring the loops work.
     */
    static YieldAtOnce defaultFor(int cpus) {
        return cpus == 1 ? ALWAYS : WHILE_CPUS_OVERSUBSCRIBED;
    }
}
