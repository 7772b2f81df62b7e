/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.CommandLines;
import io.github.nettyucx.benchmarks.core.Medians;
import io.github.nettyucx.benchmarks.core.ResultRow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * Measures how fast this machine moves data between its cores, and tells a slow phase from the
 * normal rate. Two threads hand a 64 KiB block back and forth; each copies it out of the other's
 * cache before handing it on.
 * <p>
 * Every transport's throughput between two processes depends on that rate, and on the development
 * VM it is not constant: for seconds at a time it falls to a third or less (about 19,000 MB/s
 * normally, 5,000 in such a phase, by this probe; the glibc {@code memcpy} equivalent in C 35,000
 * and 15,000), while copies within one core keep their speed. UCX over shared memory then measured
 * 13,000 MB/s at 64 KiB instead of 40,000, and {@code ucx_perftest} slowed alike. A result measured
 * in such a phase says more about the host than about the transport, so the harness waits for a
 * phase to pass before it measures, measures again when a phase began during the measurement, and
 * records the rate next to every result.
 */
final class MachineProbe {
    /** A rate below this share of the reference is a slow phase. */
    static final double SLOW_SHARE = 0.5;
    /** How the note of a row taken again after a slow phase begins its account of that. */
    static final String MEASURED_AGAIN = "measured again";
    private static final int BLOCK = 64 * 1024;
    private static final long STOP = -1;
    private static final long PROBE_MILLIS = 150;
    /** How long one client process waits for slow phases to pass, in all. */
    static final long WAIT_BUDGET_SECONDS = 60;

    private final DoubleSupplier probe;
    private final long waitBudgetNanos;
    private final double initialReference;
    /** Rates observed so far; their median is the normal rate. */
    private final List<Double> observed = new ArrayList<>();
    private long waitedNanos;

    /** @param reference the normal rate (MB/s) until rates are {@linkplain #observe observed}, 0 if unknown */
    MachineProbe(double reference) {
        this(reference, () -> crossCoreMbPerSecond(PROBE_MILLIS), TimeUnit.SECONDS.toNanos(WAIT_BUDGET_SECONDS));
    }

    /** With a probe and a wait budget of its own, for tests. */
    MachineProbe(double reference, DoubleSupplier probe, long waitBudgetNanos) {
        this.initialReference = reference;
        this.probe = probe;
        this.waitBudgetNanos = waitBudgetNanos;
    }

    /**
     * The normal rate: the median of the rates observed, not their highest, because the rate is at
     * times well above the usual one too (once 31,900 MB/s where it is usually 19,000-20,000).
     */
    double reference() {
        return observed.isEmpty() ? initialReference : Medians.ofFinite(observed);
    }

    /** Adds a rate to those the reference is the median of. */
    void observe(double rate) {
        if (Double.isFinite(rate) && rate > 0) {
            observed.add(rate);
        }
    }

    /** Measures the rate now (MB/s). */
    double measure() {
        return probe.getAsDouble();
    }

    /**
     * Takes a measurement in a normal phase of the machine: waits for a slow phase to pass first, and
     * measures once more if the machine is slow right after. The row tells the rate around the
     * measurement it keeps, and the result of one it discarded. Once this process has used up its
     * wait budget, it measures without waiting or repeating.
     */
    ResultRow guard(Supplier<ResultRow> measurement, Consumer<String> progress) throws InterruptedException {
        double before = awaitNormal(progress);
        ResultRow result = measurement.get();
        double after = measureAfter();
        if (result.ok() && isSlow(after) && waitedNanos < waitBudgetNanos) {
            String discarded = String.format(Locale.ROOT, "%s: the first attempt (%s) ended in a slow machine "
                    + "phase (cross-core copies at %.0f of %.0f MB/s)", MEASURED_AGAIN, summary(result), after,
                    reference());
            progress.accept(discarded);
            before = awaitNormal(progress);
            result = measurement.get();
            after = measureAfter();
            String note = result.get("note");
            result.put("note", note.isEmpty() ? discarded : note + "; " + discarded);
        }
        return result.put("machine_mb_per_s", Math.round(Math.min(before, after)));
    }

    /**
     * The rate right after a measurement. A slow first probe is checked once more half a second
     * later: the JIT compiling or a collector running in either process slows the probe for a moment
     * too, while a slow phase of the machine lasts seconds.
     */
    private double measureAfter() throws InterruptedException {
        double rate = measure();
        if (isSlow(rate)) {
            Thread.sleep(500);
            rate = measure();
        }
        return rate;
    }

    private static String summary(ResultRow r) {
        return r.get("p50_us").isEmpty() ? r.get("mb_per_s") + " MB/s" : "p50 " + r.get("p50_us") + " us";
    }

    boolean isSlow(double rate) {
        return rate < SLOW_SHARE * reference();
    }

    /**
     * Measures the rate, and while it is slow waits a second and measures again, within the wait
     * budget of this process. Returns the last rate measured.
     */
    double awaitNormal(Consumer<String> progress) throws InterruptedException {
        double rate = measure();
        if (!isSlow(rate) || waitedNanos >= waitBudgetNanos) {
            return rate;
        }
        long started = System.nanoTime();
        progress.accept(String.format(Locale.ROOT, "the machine is in a slow phase (cross-core copies at %.0f of "
                + "%.0f MB/s); waiting for it to pass", rate, reference()));
        while (isSlow(rate) && waitedNanos + (System.nanoTime() - started) < waitBudgetNanos) {
            Thread.sleep(1000);
            rate = measure();
        }
        waitedNanos += System.nanoTime() - started;
        progress.accept(String.format(Locale.ROOT, "%s after %.0f s (%.0f MB/s)",
                isSlow(rate) ? "still slow, measuring anyway" : "back to normal", (System.nanoTime() - started) / 1e9,
                rate));
        return rate;
    }

    /** Cross-core copy rate in MB/s, measured for about {@code millis} milliseconds. */
    static double crossCoreMbPerSecond(long millis) {
        ByteBuffer shared = ByteBuffer.allocateDirect(BLOCK);
        ByteBuffer mine = ByteBuffer.allocateDirect(BLOCK);
        ByteBuffer theirs = ByteBuffer.allocateDirect(BLOCK);
        AtomicLong turn = new AtomicLong();
        Thread partner = new Thread(() -> {
            for (long t = 1; ; t += 2) {
                long seen;
                while ((seen = turn.get()) != t) {
                    if (seen == STOP) {
                        return;
                    }
                    Thread.onSpinWait();
                }
                theirs.clear();
                theirs.put(shared.duplicate().clear());
                turn.set(t + 1);
            }
        }, "machine-probe");
        partner.setDaemon(true);
        partner.start();
        long now = System.nanoTime();
        long measureFrom = now + millis * 200_000L;
        long deadline = now + millis * 1_000_000L;
        long started = 0;
        long blocks = 0;
        for (long t = 0; ; t += 2) {
            shared.clear();
            shared.put(mine.duplicate().clear());
            turn.set(t + 1);
            while (turn.get() != t + 2) {
                Thread.onSpinWait();
            }
            now = System.nanoTime();
            if (started == 0) {
                if (now >= measureFrom) {
                    started = now;
                }
            } else {
                blocks++;
                if (now >= deadline) {
                    turn.set(STOP);
                    return blocks * (double) BLOCK / ((now - started) / 1e3);
                }
            }
        }
    }

    /** Prints the rate every half second: {@code MachineProbe [COUNT]}. */
    public static void main(String[] args) {
        Options options = new Options();
        if (!CommandLines.parse("MachineProbe", options, args)) {
            return;
        }
        for (int i = 0; i < options.count; i++) {
            System.out.printf(Locale.ROOT, "%.0f%n", crossCoreMbPerSecond(500));
        }
    }

    @Command(name = "MachineProbe", mixinStandardHelpOptions = true,
            description = "Prints the machine's cross-core copy rate (MB/s), one probe every half second.")
    private static final class Options {
        @Parameters(arity = "0..1", paramLabel = "COUNT", description = "probes (default: ${DEFAULT-VALUE})")
        int count = 10;
    }
}
