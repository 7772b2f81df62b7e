/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.ResultRow;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MachineProbeTest {
    private static final double NORMAL = 20_000;
    private static final double SLOW = 5_000;

    /** A probe that reports the given rates in turn, and the measurements it guarded. */
    private static final class Script {
        final Deque<Double> rates = new ArrayDeque<>();
        final AtomicInteger measurements = new AtomicInteger();
        final List<String> progress = new ArrayList<>();
        final MachineProbe machine;

        Script(double... rates) {
            this(TimeUnit.SECONDS.toNanos(60), rates);
        }

        Script(long waitBudgetNanos, double... rates) {
            for (double r : rates) {
                this.rates.add(r);
            }
            machine = new MachineProbe(NORMAL, () -> {
                assertFalse(this.rates.isEmpty(), "probed more often than scripted");
                return this.rates.poll();
            }, waitBudgetNanos);
        }

        /** Runs the guard, which must measure {@code times} times and probe every scripted rate. */
        ResultRow guard(int times) throws InterruptedException {
            ResultRow row = machine.guard(() -> BenchResults.row("ucx", "throughput", 1024, 1, 1)
                    .put("mb_per_s", measurements.incrementAndGet() * 1000.0), progress::add);
            assertEquals(times, measurements.get());
            assertTrue(rates.isEmpty(), "probed less often than scripted");
            return row;
        }
    }

    @Test
    void measuresOnceInANormalPhase() throws Exception {
        Script s = new Script(NORMAL, NORMAL * 0.9);
        ResultRow row = s.guard(1);
        assertEquals(18_000, row.number("machine_mb_per_s"));
        assertEquals("", row.get("note"));
    }

    @Test
    void waitsForASlowPhaseToPassBeforeMeasuring() throws Exception {
        Script s = new Script(SLOW, SLOW, NORMAL, NORMAL);
        ResultRow row = s.guard(1);
        assertEquals(NORMAL, row.number("machine_mb_per_s"));
        assertTrue(s.progress.get(0).contains("slow phase"), s.progress.toString());
    }

    @Test
    void measuresAgainWhenTheMachineTurnedSlowDuringTheMeasurement() throws Exception {
        // before, after, after confirmed, before the second attempt, after it
        Script s = new Script(NORMAL, SLOW, SLOW, NORMAL, NORMAL);
        ResultRow row = s.guard(2);
        assertEquals(2000, row.number("mb_per_s"));
        assertTrue(row.get("note").contains("first attempt (1000.000 MB/s)"), row.get("note"));
    }

    @Test
    void aMomentarilySlowProbeAfterTheMeasurementKeepsIt() throws Exception {
        Script s = new Script(NORMAL, SLOW, NORMAL);
        ResultRow row = s.guard(1);
        assertEquals(1000, row.number("mb_per_s"));
        assertEquals("", row.get("note"));
    }

    @Test
    void withItsWaitBudgetSpentItMeasuresOnceWithoutWaiting() throws Exception {
        Script s = new Script(0L, SLOW, SLOW, SLOW);
        ResultRow row = s.guard(1);
        assertEquals(SLOW, row.number("machine_mb_per_s"));
        assertEquals(List.of(), s.progress);
    }

    @Test
    void theReferenceIsTheMedianOfTheRatesObserved() {
        MachineProbe machine = new MachineProbe(NORMAL, () -> SLOW, 0);
        assertEquals(NORMAL, machine.reference());
        assertEquals(SLOW, machine.measure());
        assertEquals(NORMAL, machine.reference(), "measuring alone does not move the reference");
        machine.observe(Double.NaN);
        machine.observe(SLOW);
        machine.observe(30_000);
        machine.observe(19_000);
        assertEquals(19_000, machine.reference());
        assertTrue(machine.isSlow(19_000 * MachineProbe.SLOW_SHARE - 1));
        assertFalse(machine.isSlow(19_000 * MachineProbe.SLOW_SHARE));
    }

    @Test
    void theRealProbeMeasuresARate() {
        double rate = MachineProbe.crossCoreMbPerSecond(50);
        assertTrue(rate > 0 && Double.isFinite(rate), "rate " + rate);
    }
}
