/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import java.util.concurrent.TimeUnit;

/**
 * The measured period of one scenario: a short ramp, in which the freshly started load reaches its steady state
 * (connections' flow-control windows, pools, the lanes or threads all busy), then the window itself. The client
 * JVM prints {@code WINDOW start} and {@code WINDOW end} at the window's ends, so that the coordinator reads the
 * CPU time both JVMs used in the window alone, after the warm-up and the ramp.
 */
final class MeasurementWindow {
    static final String START = "WINDOW start";
    static final String END = "WINDOW end";

    private MeasurementWindow() {
    }

    /** Lets {@code load} ramp up for {@code rampSeconds}, then measures it for {@code measureSeconds}. */
    static LoadWindow run(Load load, double rampSeconds, double measureSeconds) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep((long) (rampSeconds * 1e9));
        load.check();
        mark(START);
        LoadWindow window = LoadWindow.over(load, (long) (measureSeconds * 1e9));
        mark(END);
        return window;
    }

    private static void mark(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
