/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The warm-up rule fed with window rates and times, as the client JVM would feed it. */
class WarmUpRuleTest {
    private static final int W = WarmUpRule.WINDOW_SECONDS;

    @Test
    void twoWindowsWithinFivePercentMakeAScenarioStable() {
        assertTrue(WarmUpRule.agree(1000, 1049));
        assertTrue(WarmUpRule.agree(1000, 951));
        assertFalse(WarmUpRule.agree(1000, 1050));
        assertFalse(WarmUpRule.agree(1000, 950));
        assertFalse(WarmUpRule.agree(0, 0), "a load that completes nothing is not stable");
        assertFalse(WarmUpRule.agree(Double.NaN, 1000), "the first window of a turn has nothing to agree with");
    }

    @Test
    void stableScenariosKeepTheLastLoadRunningUntilTheMinimum() {
        WarmUpRule rule = new WarmUpRule(2, 10, 40);
        double t = 0;
        assertEquals(0, rule.next(t));
        rule.windowEnded(1000, t += W);
        assertEquals(0, rule.next(t));
        rule.windowEnded(1020, t += W);
        assertEquals(1, rule.next(t), "scenario 0 is stable: the turn goes to scenario 1");
        rule.windowEnded(500, t += W);
        assertEquals(1, rule.next(t));
        rule.windowEnded(505, t += W);
        assertEquals(8, rule.stableAfterSeconds());
        assertTrue(rule.allStable());
        assertEquals(1, rule.next(t), "every scenario is stable after 8 s, but the minimum is 10 s");
        rule.windowEnded(300, t += W);
        assertEquals(-1, rule.next(t));
        assertEquals(8, rule.stableAfterSeconds(), "stability once reached is not taken back");
        assertEquals(List.of(), rule.unstable());
    }

    @Test
    void aScenarioStillMovingAfterThreeWindowsGivesTheNextOneItsTurn() {
        WarmUpRule rule = new WarmUpRule(2, 10, 40);
        double t = 0;
        for (double rate : new double[] {100, 200, 400}) {
            assertEquals(0, rule.next(t));
            rule.windowEnded(rate, t += W);
        }
        assertEquals(1, rule.next(t));
        rule.windowEnded(900, t += W);
        rule.next(t);
        rule.windowEnded(910, t += W);
        assertEquals(0, rule.next(t), "back to the scenario not yet stable");
        rule.windowEnded(800, t += W);
        assertEquals(0, rule.next(t));
        rule.windowEnded(810, t += W);
        assertEquals(t, rule.stableAfterSeconds());
        assertEquals(-1, rule.next(t));
    }

    @Test
    void aWindowThatWouldPassTheMaximumIsNotStarted() {
        WarmUpRule rule = new WarmUpRule(1, 10, 40);
        double t = 0.5;
        int windows = 0;
        while (rule.next(t) >= 0) {
            rule.windowEnded(windows % 2 == 0 ? 100 : 200, t += W);
            windows++;
        }
        assertTrue(t <= 40, "the warm-up ran until " + t + " s");
        assertEquals(19, windows);
        assertTrue(Double.isNaN(rule.stableAfterSeconds()));
        assertEquals(List.of(0), rule.unstable());
    }

    @Test
    void stableButShortOfTheMinimumStopsWhereTheNextWindowWouldPassTheMaximum() {
        WarmUpRule rule = new WarmUpRule(1, 10, 10);
        double t = 0;
        rule.next(t);
        rule.windowEnded(100, t += W);
        rule.next(t);
        rule.windowEnded(100, t += W + 4.5);
        assertEquals(-1, rule.next(t), "8.5 s in, another window would end after the 10 s maximum");
        assertTrue(rule.allStable());
    }

    @Test
    void noTimeForAWindowIsNoWarmUp() {
        assertEquals(-1, new WarmUpRule(3, 0, 0).next(0));
        assertEquals("no warm-up", WarmUp.Outcome.describe(0, Double.NaN, "unary:16:1"));
    }

    @Test
    void outcomesSayWhatHappened() {
        assertEquals("stable after 12 s", WarmUp.Outcome.describe(12.2, 12.2, ""));
        assertEquals("stable after 8 s, warmed up for 10 s", WarmUp.Outcome.describe(10.1, 8.0, ""));
        assertEquals("not stable after 40 s (unary:16:64 stream:1024)",
                WarmUp.Outcome.describe(39.6, Double.NaN, "unary:16:64 stream:1024"));
    }

    @Test
    void badLimitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WarmUpRule(0, 10, 40));
        assertThrows(IllegalArgumentException.class, () -> new WarmUpRule(2, 10, 5));
    }
}
