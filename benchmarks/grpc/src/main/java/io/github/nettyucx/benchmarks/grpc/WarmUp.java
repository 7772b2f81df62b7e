/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.ResultRow;
import io.grpc.Channel;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Warms a client JVM up before its first measured scenario: runs the scenarios' loads on the channel, window by
 * window, until {@link WarmUpRule} says the rates are stable or the time is up. Progress goes to standard error.
 */
final class WarmUp {
    private final List<Scenario> scenarios;
    private final Channel channel;
    private final double minSeconds;
    private final double maxSeconds;

    WarmUp(List<Scenario> scenarios, Channel channel, double minSeconds, double maxSeconds) {
        this.scenarios = scenarios;
        this.channel = channel;
        this.minSeconds = minSeconds;
        this.maxSeconds = maxSeconds;
    }

    /** @throws IllegalStateException when a call of a warm-up load failed */
    Outcome run() throws InterruptedException {
        WarmUpRule rule = new WarmUpRule(scenarios.size(), minSeconds, maxSeconds);
        long start = System.nanoTime();
        Load load = null;
        int running = -1;
        try {
            int next;
            while ((next = rule.next(secondsSince(start))) >= 0) {
                if (next != running) {
                    if (load != null) {
                        load.close();
                    }
                    running = next;
                    load = Load.start(scenarios.get(running), channel);
                }
                LoadWindow w = LoadWindow.over(load, TimeUnit.SECONDS.toNanos(WarmUpRule.WINDOW_SECONDS));
                rule.windowEnded(w.rate(), secondsSince(start));
                System.err.printf(Locale.ROOT, "    warm-up %5.1f s: %-28s %10.0f/s%n", secondsSince(start),
                        scenarios.get(running).label(), w.rate());
            }
        } catch (RuntimeException | InterruptedException e) {
            if (load != null) {
                closeAfterFailure(load, e);
            }
            throw e;
        }
        double seconds = secondsSince(start);
        if (load != null) {
            load.close();
        }
        Outcome outcome = new Outcome(seconds, rule.stableAfterSeconds(), rule.unstable().stream()
                .map(i -> scenarios.get(i).toString()).collect(Collectors.toList()));
        System.err.println("    warm-up: " + outcome.describe());
        return outcome;
    }

    private static void closeAfterFailure(Load load, Exception failure) {
        try {
            load.close();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private static double secondsSince(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    /** How the warm-up of one client JVM went; every result row of that JVM carries it. */
    static final class Outcome {
        final double seconds;
        /** NaN when the rates did not settle. */
        final double stableAfterSeconds;
        final List<String> unstable;

        Outcome(double seconds, double stableAfterSeconds, List<String> unstable) {
            this.seconds = seconds;
            this.stableAfterSeconds = stableAfterSeconds;
            this.unstable = unstable;
        }

        void addTo(ResultRow r) {
            r.put("warmup_s", seconds).put("warmup_stable_after_s", stableAfterSeconds)
                    .put("warmup_unstable", String.join(" ", unstable));
        }

        String describe() {
            return describe(seconds, stableAfterSeconds, String.join(" ", unstable));
        }

        /** "stable after 12 s", "stable after 8 s, warmed up for 10 s", "not stable after 40 s (unary:16:64)". */
        static String describe(double seconds, double stableAfterSeconds, String unstable) {
            if (Double.isFinite(stableAfterSeconds)) {
                String text = "stable after " + round(stableAfterSeconds) + " s";
                return seconds - stableAfterSeconds >= 1 ? text + ", warmed up for " + round(seconds) + " s" : text;
            }
            if (seconds < WarmUpRule.WINDOW_SECONDS) {
                return "no warm-up";
            }
            return "not stable after " + round(seconds) + " s" + (unstable.isEmpty() ? "" : " (" + unstable + ")");
        }

        private static long round(double seconds) {
            return Math.round(seconds);
        }
    }
}
