/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.ycsb.YcsbOutput;

/**
 * One YCSB run: which workload, thread count, transport and repetition (from 1), where the transport came in
 * that repetition's order (from 1), and YCSB's summary.
 */
record RunResult(String workload, int threads, String transport, int run, int position, YcsbOutput output) {
}
