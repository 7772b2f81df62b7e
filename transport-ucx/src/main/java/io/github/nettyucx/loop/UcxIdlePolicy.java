/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * What a UCX event loop does when a run found no work: the one place that decides whether it spins (how long, and
 * when the spin starts yielding its core) or sleeps at once in epoll. {@link UcxIoHandler} asks at the start of
 * every idle period ({@link #idleStarts}), carries the decision out, and says when the period ended in a sleep
 * ({@link #slept(long)}); a spin that finds work keeps the window as it is.
 *
 * <p>{@link WaitStrategy#BUSY_POLL}, {@link WaitStrategy#SLEEP} and {@link WaitStrategy#SPIN_THEN_SLEEP} do what they
 * say. {@link WaitStrategy#ADAPTIVE}, the default, is a state machine ({@link Mode}) over three things the
 * measurements justified (docs/settings.md#waiting):
 * <ul>
 *   <li>a loop's start-up spins longer and without yielding: in a fresh JVM the peer's first replies, run by the
 *   interpreter, outlast the usual spin, and a loop that learnt to sleep then pays a wake-up per message;</li>
 *   <li>spinning pays while work arrives soon: the spin window is learnt from how idle periods end, as KVM's halt
 *   polling sizes its polling;</li>
 *   <li>beside threads that take every CPU, spinning only hands them slices: while the host's runnable threads
 *   other than this loop fill its CPUs, the loop sleeps at once, as epoll's does, with a short scheduler slice;</li>
 *   <li>unless the loop carries a stream between loops, with no application threads handing it work: it works at
 *   least half its time, or its connections mark a stream (they return credits in messages of their own, which the
 *   sender waits for, or their flushes wait for the peer's). The threads that fill the CPUs are then mostly the
 *   loops at both ends, and sleeping through each gap would cost a wake-up per gap, at the receiving end one per
 *   half window of the sender's, while freeing little of a CPU. Application threads that feed a loop need the
 *   cores, as in the start-up.</li>
 * </ul>
 *
 * <p>One instance per loop, used on its thread, except {@link #taskFromOtherThread()}. Nothing here allocates; the
 * CPU reading ({@code runnableThreads}, a read of /proc/loadavg) is taken at most once every {@link #SAMPLE_NANOS}.
 */
public final class UcxIdlePolicy {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxIdlePolicy.class);

    /** Periods in which a loop of this process slept at once because other threads took the CPUs. */
    private static final LongAdder CPUS_TAKEN_PERIODS = new LongAdder();
    /** A spin that lasts until work comes ({@link WaitStrategy#BUSY_POLL}). */
    static final long FOREVER = Long.MAX_VALUE;
    /** How long an idle period of the start-up spins before it sleeps. */
    static final long STARTUP_WINDOW_NANOS = 500_000;
    /** The start-up ends this long after it began, whatever its count of events. */
    static final long STARTUP_MAX_NANOS = 3_000_000_000L;
    /** More tasks from other threads than this end the start-up: application threads drive the loop. */
    static final int STARTUP_OTHER_THREADS_TASKS = 64;
    /** The spin window an idle period that ended soon after a sleep brings back, from zero. */
    static final long WINDOW_START_NANOS = 1_000;
    /** An idle period longer than this many times the longest spin says spinning was wasted. */
    static final int OUTLASTING = 4;
    /** The shortest time between two CPU readings of a loop. */
    static final long SAMPLE_NANOS = 2_000_000;
    /** About how far back the moving average of the readings looks. */
    static final long HORIZON_NANOS = 32_000_000;
    /**
     * Other runnable threads, on average, beyond the CPU count from which the CPUs count as taken; they count as
     * free again below the CPU count minus this. The gap keeps a loop that sleeps at once, which is itself no
     * longer runnable, from returning to spinning as soon as it stopped.
     */
    static final double TAKEN_MARGIN = 0.5;
    /** A spin yields once every this many empty rounds (a power of two), once it yields at all. */
    static final int ROUNDS_PER_YIELD = 4;
    /**
     * The share of its time a loop works from which, with no tasks from other threads for {@link #HORIZON_NANOS},
     * the CPUs being taken no longer make it sleep at once.
     */
    static final double STREAM_BUSY_SHARE = 0.5;

    /** The states of an adaptive loop. */
    enum Mode {
        /** The loop carries nothing it spins for yet: it sleeps at once and its start-up has not begun. */
        IDLE,
        /** The start-up: every idle period spins {@link #STARTUP_WINDOW_NANOS} without yielding. */
        STARTUP,
        /** Spinning for the learnt window, yielding after a while. */
        SPINNING,
        /** Other threads take the CPUs and the loop is mostly idle: every idle period sleeps at once. */
        CPUS_TAKEN
    }

    private final UcxIoHandlerConfig config;
    private final IntSupplier runnableThreads;
    private final int cpus;
    private Mode mode = Mode.IDLE;

    private long windowNanos;
    private long startupEndsAt;
    private long startupEndsAtWork;
    /**
     * Tasks from other threads, counted without atomicity: a lost count only delays the start-up's end, and any count
     * says that application threads feed the loop.
     */
    private volatile int otherThreadsTasks;
    private int otherThreadsTasksAtStart;
    /** The count at the last CPU reading (other threads read it too), and when a reading last found new tasks. */
    private int otherThreadsTasksRead;
    private long otherThreadsTaskSeenAt;

    /** When the next CPU reading may be taken, and the moving average of the readings, this loop not counted. */
    private long nextSample;
    private double othersRunnable;
    private long cpusTakenPeriods;

    /** Marks of a stream on the loop's connections so far, and when that count last moved. */
    private long streamMarks;
    private long streamMarkedAt;

    /** When the current idle period started, when the last one ended, whether it did, and the loop's busy share. */
    private long idleStartedAt;
    private long idleEndedAt;
    private boolean idleEnded;
    private double busyShare;

    /** How the current idle period's spin yields. */
    private long yieldAfterNanos;
    private int yieldRoundsMask;

    /**
     * {@code runnableThreads}: threads running or runnable on the whole host, the caller included, -1 when unknown;
     * {@code cpus}: the host's online CPUs, -1 when unknown; {@code now}: {@link System#nanoTime()}.
     */
    UcxIdlePolicy(UcxIoHandlerConfig config, IntSupplier runnableThreads, int cpus, long now) {
        this.config = config;
        this.runnableThreads = runnableThreads;
        this.cpus = cpus;
        this.windowNanos = config.spinNanos();
        // As if the last reading were a horizon old: the first one replaces the average.
        this.nextSample = now - HORIZON_NANOS + SAMPLE_NANOS;
        this.otherThreadsTaskSeenAt = now - HORIZON_NANOS;
        this.streamMarkedAt = now - HORIZON_NANOS;
    }

    /**
     * An idle period starts at {@code now} after {@code work} events handled so far and {@code streamMarks} marks of
     * a stream between loops ({@link UcxWorker#countStreamMark}). {@code spinningPeers}: the loop
     * carries a connection worth spinning for (UCX, or a netty-ucx peer's TCP data path); {@code onlyPlainPeers}:
     * its connections are all plain TCP to other peers, whose bytes come through the kernel, so that a spin would
     * only take the core the kernel and the peers need. Returns how long the loop spins before it sleeps: 0 to sleep
     * at once, {@link #FOREVER} never to sleep; {@link #yieldAfterNanos()} and {@link #yieldRoundsMask()} say how
     * that spin yields.
     */
    long idleStarts(long now, long work, long streamMarks, boolean spinningPeers, boolean onlyPlainPeers) {
        measureBusyShare(now);
        WaitStrategy strategy = config.waitStrategy();
        if (onlyPlainPeers || strategy == WaitStrategy.SLEEP) {
            return decide(0, FOREVER, 0);
        }
        if (strategy == WaitStrategy.BUSY_POLL) {
            return decide(FOREVER, FOREVER, 0);
        }
        if (strategy == WaitStrategy.SPIN_THEN_SLEEP) {
            return decide(config.spinNanos(), config.spinYieldAfterNanos(), yieldMask());
        }
        if (!spinningPeers && mode == Mode.IDLE) {
            // An adaptive loop spins for connections: its start-up begins with the first.
            return decide(0, FOREVER, 0);
        }
        if (streamMarks != this.streamMarks) {
            this.streamMarks = streamMarks;
            streamMarkedAt = now;
        }
        mode = next(now, work);
        switch (mode) {
            case STARTUP:
                return decide(STARTUP_WINDOW_NANOS, FOREVER, 0);
            case SPINNING:
                return decide(windowNanos, config.spinYieldAfterNanos(), yieldMask());
            case CPUS_TAKEN:
            case IDLE:
            default:
                return decide(0, FOREVER, 0);
        }
    }

    /** The adaptive loop's next mode: the start-up first, then spinning unless the CPUs are taken. */
    private Mode next(long now, long work) {
        if (mode == Mode.IDLE) {
            if (config.startupSpinEvents() > 0) {
                startupEndsAt = now + STARTUP_MAX_NANOS;
                startupEndsAtWork = work + config.startupSpinEvents();
                otherThreadsTasksAtStart = otherThreadsTasks;
                return Mode.STARTUP;
            }
        } else if (mode == Mode.STARTUP) {
            boolean threadsDrive = otherThreadsTasks - otherThreadsTasksAtStart > STARTUP_OTHER_THREADS_TASKS;
            if (work - startupEndsAtWork < 0 && now - startupEndsAt < 0 && !threadsDrive) {
                return Mode.STARTUP;
            }
            logger.debug("The loop's start-up ended after {} events{}",
                    work - startupEndsAtWork + config.startupSpinEvents(),
                    threadsDrive ? ": other threads hand it their tasks" : "");
        }
        boolean taken = cpusTaken(now) && !carriesStream(now);
        if (taken && mode != Mode.CPUS_TAKEN) {
            cpusTakenPeriods++;
            CPUS_TAKEN_PERIODS.increment();
        }
        return taken ? Mode.CPUS_TAKEN : Mode.SPINNING;
    }

    /**
     * Whether the host's other runnable threads fill its CPUs, with {@link #TAKEN_MARGIN} either way of the CPU count
     * depending on the current mode; reads the count when it is time, and notes then whether other threads handed
     * the loop tasks since the last reading. Where the count cannot be read, never.
     */
    private boolean cpusTaken(long now) {
        if (cpus <= 0) {
            return false;
        }
        if (now - nextSample >= 0) {
            int runnable = runnableThreads.getAsInt();
            if (runnable > 0) {
                // A reading after a gap weighs as much as the gap, up to replacing the average.
                othersRunnable = towards(othersRunnable, runnable - 1, now - nextSample + SAMPLE_NANOS);
            }
            nextSample = now + SAMPLE_NANOS;
            int tasks = otherThreadsTasks;
            if (tasks != otherThreadsTasksRead) {
                otherThreadsTasksRead = tasks;
                otherThreadsTaskSeenAt = now;
            }
        }
        return mode == Mode.CPUS_TAKEN ? othersRunnable >= cpus - TAKEN_MARGIN : othersRunnable >= cpus + TAKEN_MARGIN;
    }

    /**
     * Adds the time from the last idle period's start to {@code now} to the moving average of the share of its time
     * the loop works: that period, then the work that ended it until this one starts.
     */
    private void measureBusyShare(long now) {
        if (idleEnded) {
            long idle = idleEndedAt - idleStartedAt;
            long busy = now - idleEndedAt;
            if (idle >= 0 && busy >= 0 && idle + busy > 0) {
                double total = idle + busy;
                busyShare = towards(busyShare, busy / total, total);
            }
            idleEnded = false;
        }
        idleStartedAt = now;
    }

    /**
     * The moving averages' step: {@code average} moved toward {@code sample} by the share of {@link #HORIZON_NANOS}
     * that {@code spanNanos}, the time the sample stands for, is (all of it from a horizon on).
     */
    private static double towards(double average, double sample, double spanNanos) {
        return average + (sample - average) * Math.min(1.0, spanNanos / HORIZON_NANOS);
    }

    /**
     * Whether the loop carries a stream: it works at least {@link #STREAM_BUSY_SHARE} of its time, or one of its
     * connections marked a stream within {@link #HORIZON_NANOS} (returned credits in a message of their own: the
     * peer sends as soon as they arrive; or ran out of the peer's: it reads as soon as they come back), and no other
     * threads hand it tasks.
     */
    private boolean carriesStream(long now) {
        return (busyShare >= STREAM_BUSY_SHARE || now - streamMarkedAt <= HORIZON_NANOS)
                && now - otherThreadsTaskSeenAt > HORIZON_NANOS;
    }

    /** The current idle period ended at {@code now}: work came, during a spin or in a sleep. */
    void idleEnded(long now) {
        idleEndedAt = now;
        idleEnded = true;
    }

    private int yieldMask() {
        // With one CPU the loops and the threads they wait for always share it: yield every round.
        return cpus == 1 ? 0 : ROUNDS_PER_YIELD - 1;
    }

    private long decide(long spin, long yieldAfter, int roundsMask) {
        yieldAfterNanos = cpus == 1 && spin != FOREVER ? 0 : yieldAfter;
        yieldRoundsMask = roundsMask;
        return spin;
    }

    /** How long into the current spin it starts yielding its core ({@link #FOREVER}: never). */
    long yieldAfterNanos() {
        return yieldAfterNanos;
    }

    /** Once it yields, the spin yields every {@code yieldRoundsMask() + 1} empty rounds. */
    int yieldRoundsMask() {
        return yieldRoundsMask;
    }

    /**
     * The current idle period ended in a sleep after {@code idleNanos} in all: an adaptive spin learns from it.
     * One that a longer spin would have caught doubles the window; one that outlasted {@link #OUTLASTING} times the
     * longest spin halves it, down to zero (sleeping at once). One in between keeps it: the wake-up of a loop that
     * sleeps takes about as long as the longest spin on a busy machine, and shrinking on it would keep it asleep.
     */
    void slept(long idleNanos) {
        if (mode != Mode.SPINNING) {
            return;
        }
        long max = config.spinNanos();
        if (idleNanos <= max) {
            windowNanos = Math.min(max, Math.max(WINDOW_START_NANOS, windowNanos * 2));
        } else if (idleNanos > max * OUTLASTING) {
            long half = windowNanos / 2;
            windowNanos = half < WINDOW_START_NANOS ? 0 : half;
        }
    }

    /**
     * Another thread handed the loop a task: application threads that do so need the cores. Past the start-up, which
     * counts them, one new count per CPU reading is all a stream needs to know, so the other threads write the field
     * at most that often instead of at every task.
     */
    void taskFromOtherThread() {
        if (mode == Mode.STARTUP || mode == Mode.IDLE || otherThreadsTasks == otherThreadsTasksRead) {
            otherThreadsTasks++;
        }
    }

    /** Whether the loop's thread should ask for a short scheduler slice: while it sleeps at once in every wait. */
    boolean wantsShortSlice() {
        return config.waitStrategy() == WaitStrategy.SLEEP || mode == Mode.CPUS_TAKEN;
    }

    Mode mode() {
        return mode;
    }

    /** Periods of sleeping at once because the CPUs were taken, begun so far. */
    long cpusTakenPeriods() {
        return cpusTakenPeriods;
    }

    @Override
    public String toString() {
        return "UcxIdlePolicy(" + mode + ", window " + windowNanos + " ns, others runnable " + othersRunnable
                + ", busy " + busyShare + ')';
    }

    /** Periods of sleeping at once that the process's loops began since it started (the metrics read them). */
    public static long processCpusTakenPeriods() {
        return CPUS_TAKEN_PERIODS.sum();
    }
}
