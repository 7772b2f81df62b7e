/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.vertx.core.Future;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits in a test's thread for Vert.x futures, within a bound that only a hung transport reaches. */
final class Await {
    private static final long SECONDS = 30;

    private Await() {
    }

    /** The result of {@code future}, or its failure thrown as it is. */
    static <T> T result(Future<T> future) throws Exception {
        try {
            return future.toCompletionStage().toCompletableFuture().get(SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw e;
        } catch (TimeoutException e) {
            printThreads();
            throw e;
        }
    }

    /** Where every thread is, for a test that waited in vain: the test output then shows what hung. */
    private static void printThreads() {
        StringBuilder dump = new StringBuilder("Threads when a wait timed out:\n");
        for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
            dump.append('"').append(thread.getKey().getName()).append("\" ").append(thread.getKey().getState())
                    .append('\n');
            for (StackTraceElement frame : thread.getValue()) {
                dump.append("    at ").append(frame).append('\n');
            }
        }
        System.err.println(dump);
    }

    /** The failure of {@code future}, which must fail. */
    static Throwable failure(Future<?> future) throws Exception {
        try {
            Object result = future.toCompletionStage().toCompletableFuture().get(SECONDS, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure, got " + result);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
