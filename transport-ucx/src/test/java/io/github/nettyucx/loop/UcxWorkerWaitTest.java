/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.transport.TestTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wait a loop sleeps in ({@code java_worker_wait}): with a timeout it sleeps at least that long and returns,
 * timed by epoll_pwait2 where the kernel has it (Linux 5.11) and by the worker's timerfd elsewhere; without one it
 * sleeps until {@code wakeup()}'s eventfd write. Both timings are tested on every kernel: the timerfd's by forcing
 * it. A worker without connections has nothing else that could wake it.
 */
class UcxWorkerWaitTest {
    private static final long TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    @Test
    @Timeout(30)
    void timedWaitsUseEpollPwait2WhereTheKernelHasIt() throws Exception {
        TestTransport.requireUcx();
        UcxWorker worker = new UcxWorker(4);
        try {
            if (!TestTransport.kernelAtLeast(5, 11)) {
                assertTrue(!worker.timedWaitsUsePwait2(), "a kernel before 5.11 has no epoll_pwait2");
            } else if (!underSeccompFilter()) {
                // A seccomp filter (a container runtime's) may refuse the call; the timerfd then times the waits.
                assertTrue(worker.timedWaitsUsePwait2(), "epoll_pwait2 on Linux " + System.getProperty("os.version"));
            }
            worker.timeWaitsWithTimerFd();
            assertTrue(!worker.timedWaitsUsePwait2(), "the timerfd, once forced");
        } finally {
            assertEquals(0, worker.destroy());
        }
    }

    @ParameterizedTest(name = "timerfd forced: {0}")
    @ValueSource(booleans = {false, true})
    @Timeout(30)
    void aTimedWaitSleepsAtLeastItsTimeoutAndReturns(boolean timerFd) throws Exception {
        UcxWorker worker = newWorker(timerFd);
        try {
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                int events = waitArmed(worker, TIMEOUT_NANOS);
                long slept = System.nanoTime() - start;
                assertEquals(0, events, "socket events of a worker without sockets");
                assertTrue(slept >= TIMEOUT_NANOS, "slept " + slept + " ns of a " + TIMEOUT_NANOS + " ns timeout");
            }
        } finally {
            assertEquals(0, worker.destroy());
        }
    }

    @ParameterizedTest(name = "timerfd forced: {0}")
    @ValueSource(booleans = {false, true})
    @Timeout(30)
    void aWaitWithoutTimeoutEndsAtTheEventFdWrite(boolean timerFd) throws Exception {
        UcxWorker worker = newWorker(timerFd);
        try {
            // A timed wait first: a timerfd it armed must not be what ends the untimed one.
            waitArmed(worker, 1_000_000);
            long written = System.nanoTime() + TIMEOUT_NANOS; // at the earliest
            Thread writer = new Thread(() -> {
                try {
                    TimeUnit.NANOSECONDS.sleep(TIMEOUT_NANOS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                worker.wake();
            });
            writer.start();
            assertEquals(0, waitArmed(worker, -1));
            assertTrue(System.nanoTime() - written >= 0, "the wait ended before the eventfd write");
            writer.join();
        } finally {
            assertEquals(0, worker.destroy());
        }
    }

    /**
     * A wait that arming cut short (UCX had events: here a message in the worker's shared-memory queue) returns -1
     * without looking at the sockets, and must not count as a look: the loop polls its sockets when it has not for a
     * while, and a loop whose every wait was cut short would otherwise never see a side channel's end (bug 17).
     */
    @Test
    @Timeout(30)
    void aWaitCutShortByUcxIsNoLookAtTheSockets() throws Exception {
        UcxWorker worker = newWorker(false);
        try {
            waitArmed(worker, 1_000_000);
            long polled = worker.socketsPolledAt();
            worker.probeStart();
            // Until the probe's message waits in this worker's queue, a wait sleeps until it comes (or its timeout):
            // a real look. This worker is not progressed meanwhile, so that the message stays there.
            int waits = 0;
            int events;
            while ((events = worker.await(TIMEOUT_NANOS)) >= 0 && waits++ < 100) {
                assertEquals(0, events, "socket events of a worker without sockets");
                assertTrue(worker.socketsPolledAt() - polled > 0, "a wait that slept is a look at the sockets");
                polled = worker.socketsPolledAt();
                worker.probeArrived();
            }
            assertEquals(-1, events, "arming never said UCX had the probe's message, in " + waits + " waits");
            assertEquals(polled, worker.socketsPolledAt(), "a wait cut short counted as a look at the sockets");
            assertTrue(worker.waitEndedAt() - polled > 0, "the wait's end is still recorded");
            while (!worker.probeArrived()) {
                worker.progress();
            }
            worker.probeFree();
            assertEquals(0, worker.await(0));
            assertTrue(worker.socketsPolledAt() - polled > 0, "a wait without timeout looks at the sockets");
        } finally {
            assertEquals(0, worker.destroy());
        }
    }

    /** A worker without connections, whose timed waits use the timerfd when {@code timerFd}. */
    private static UcxWorker newWorker(boolean timerFd) throws IOException {
        TestTransport.requireUcx();
        UcxWorker worker = new UcxWorker(4);
        if (timerFd) {
            worker.timeWaitsWithTimerFd();
        }
        return worker;
    }

    /** Waits with {@code timeoutNanos}, progressing the worker whenever arming it says it has events first. */
    private static int waitArmed(UcxWorker worker, long timeoutNanos) throws IOException {
        int events;
        while ((events = worker.await(timeoutNanos)) < 0) {
            worker.progress();
        }
        return events;
    }

    private static boolean underSeccompFilter() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .anyMatch(line -> line.startsWith("Seccomp:") && !line.endsWith("0"));
    }
}
