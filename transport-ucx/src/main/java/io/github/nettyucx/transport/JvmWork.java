/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The work of the JVM's own background threads, in milliseconds so far: its JIT compiler's and its garbage
 * collectors'. Their threads take scheduler slices from a spinning loop as another process's would, most of all
 * while a JVM warms up, but they are no neighbours: {@link CoreContention} does not count slices lost while they
 * work. Read from the JVM's counters, without a system call.
 */
enum JvmWork implements CoreContention.OwnWork {
    INSTANCE;

    private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    private final boolean compilerTimed = compiler != null && compiler.isCompilationTimeMonitoringSupported();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();

    @Override
    public long millis() {
        long millis = compilerMillis();
        for (int i = 0; i < collectors.size(); i++) {
            millis += Math.max(0, collectors.get(i).getCollectionTime());
        }
        return millis;
    }

    /** The JIT compiler's part of {@link #millis()}: its compilations' time so far (0 if the JVM does not time it). */
    long compilerMillis() {
        return compilerTimed ? compiler.getTotalCompilationTime() : 0;
    }
}
