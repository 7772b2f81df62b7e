/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import java.util.ArrayList;
import java.util.List;

/**
 * When the warm-up of a client JVM is over, decided from the rates (calls or messages per second) of its
 * {@value #WINDOW_SECONDS} s windows; it reads no clock, so that it can be tested.
 *
 * <p>The JIT compiles what each scenario runs, so the scenarios' loads take turns. A turn runs one scenario's
 * load for consecutive windows and ends once two of them differ by less than {@value #TOLERANCE_PERCENT}% (the
 * scenario is stable) or after {@value #MAX_WINDOWS_PER_TURN} windows; the next turn goes to the next scenario
 * not yet stable, round and round. The warm-up ends at the first window's end where every scenario is stable
 * and the minimum time has passed (until then the last load keeps running), or before a window that would
 * pass the maximum time: then the scenarios not stable are named.
 */
final class WarmUpRule {
    static final int WINDOW_SECONDS = 2;
    static final int TOLERANCE_PERCENT = 5;
    /** A scenario that keeps moving gives the others their turn and gets another later. */
    static final int MAX_WINDOWS_PER_TURN = 3;

    private final double minSeconds;
    private final double maxSeconds;
    private final boolean[] stable;
    private int current;
    private int windowsInTurn;
    private double previousRate = Double.NaN;
    private double stableAfter = Double.NaN;

    WarmUpRule(int scenarios, double minSeconds, double maxSeconds) {
        if (scenarios < 1 || minSeconds < 0 || maxSeconds < minSeconds) {
            throw new IllegalArgumentException("need scenarios >= 1 and 0 <= min <= max: " + scenarios + ", "
                    + minSeconds + ", " + maxSeconds);
        }
        this.minSeconds = minSeconds;
        this.maxSeconds = maxSeconds;
        this.stable = new boolean[scenarios];
    }

    /**
     * The scenario whose load the next window runs, or -1 when the warm-up is over.
     *
     * @param elapsedSeconds time since the warm-up began
     */
    int next(double elapsedSeconds) {
        if (allStable()) {
            return elapsedSeconds >= minSeconds || elapsedSeconds + WINDOW_SECONDS > maxSeconds ? -1 : current;
        }
        if (elapsedSeconds + WINDOW_SECONDS > maxSeconds) {
            return -1;
        }
        if (stable[current] || windowsInTurn >= MAX_WINDOWS_PER_TURN) {
            do {
                current = (current + 1) % stable.length;
            } while (stable[current]);
            windowsInTurn = 0;
            previousRate = Double.NaN;
        }
        return current;
    }

    /** The window {@link #next} asked for ran the load at {@code rate}; it ended {@code elapsedSeconds} in. */
    void windowEnded(double rate, double elapsedSeconds) {
        windowsInTurn++;
        if (!stable[current] && agree(previousRate, rate)) {
            stable[current] = true;
            if (allStable()) {
                stableAfter = elapsedSeconds;
            }
        }
        previousRate = rate;
    }

    /** Whether two consecutive windows' rates differ by less than the tolerance (of the earlier one). */
    static boolean agree(double earlier, double later) {
        return earlier > 0 && later > 0 && Math.abs(later - earlier) < earlier * TOLERANCE_PERCENT / 100.0;
    }

    boolean allStable() {
        for (boolean s : stable) {
            if (!s) {
                return false;
            }
        }
        return true;
    }

    /** When the last scenario became stable, in seconds since the warm-up began; NaN while one is not. */
    double stableAfterSeconds() {
        return stableAfter;
    }

    /** The indexes of the scenarios not stable (yet). */
    List<Integer> unstable() {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < stable.length; i++) {
            if (!stable[i]) {
                list.add(i);
            }
        }
        return list;
    }
}
