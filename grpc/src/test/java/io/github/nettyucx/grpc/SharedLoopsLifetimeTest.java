/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.grpc.interop.Empty;
import io.github.nettyucx.grpc.interop.InteropServiceGrpc;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The providers' shared groups live as long as the servers and channels built on them, as grpc-netty's own: a
 * hundred rounds of building a server and a channel, making one call and shutting both down leave, once the
 * release delay has passed, no UCX event loop thread and no native UCX connection; and a server built after that
 * runs on new groups. This is what an application server that redeploys a web application needs.
 *
 * <p>The release delay is shortened to {@value #RELEASE_DELAY_MILLIS} ms for the test. The native connections
 * are counted by the native layer's {@link UcxNative#connectionsAllocated()}, as the transport's own leak checks
 * count them.
 */
class SharedLoopsLifetimeTest {
    private static final int ROUNDS = 100;
    private static final long RELEASE_DELAY_MILLIS = 50;
    private static final long WAIT_SECONDS = 15;
    /** The thread names of both shared groups: {@code grpc-ucx-worker-ELG-*}, {@code grpc-ucx-boss-ELG-*}. */
    private static final String THREAD_PREFIX = "grpc-ucx-";

    @BeforeAll
    static void ucx() {
        UcxChecks.requireUcx();
    }

    @Test
    void aHundredServersAndChannelsLeaveNothingBehind() throws Exception {
        assertTrue(GrpcNettyPools.counted(), "grpc-netty's builders do not take a pool: the groups are not counted");
        SharedUcxEventLoops loops = SharedUcxEventLoops.INSTANCE;
        loops.releaseDelayMillis(RELEASE_DELAY_MILLIS);
        try {
            EventLoopGroup first = null;
            EventLoopGroup last = null;
            for (int round = 0; round < ROUNDS; round++) {
                EventLoopGroup worker = serveOneCall();
                if (first == null) {
                    first = worker;
                }
                last = worker;
            }
            // Released groups: every server and channel gave its references back (a group with one out stays).
            assertNothingLeft(loops);
            assertTrue(first.isTerminated(), "the first worker group is still running");
            assertTrue(last.isTerminated(), "the last worker group is still running");

            EventLoopGroup again = serveOneCall();
            assertNotSame(last, again, "a released group was handed out again");
            assertNothingLeft(loops);
        } finally {
            loops.releaseDelayMillis(SharedUcxEventLoops.RELEASE_DELAY_MILLIS);
        }
    }

    /** One server, one channel, one call on UCX, both shut down; returns the worker group they ran on. */
    private static EventLoopGroup serveOneCall() throws Exception {
        Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new InteropServiceImpl()).build().start();
        ManagedChannel channel = null;
        try {
            channel = Grpc.newChannelBuilder("127.0.0.1:" + server.getPort(), InsecureChannelCredentials.create())
                    .build();
            assertEquals(Empty.getDefaultInstance(), InteropServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(30, TimeUnit.SECONDS).emptyCall(Empty.getDefaultInstance()));
            UcxChecks.assertOnUcx(server.getPort());
            return SharedUcxEventLoops.INSTANCE.worker().current();
        } finally {
            if (channel != null) {
                assertTrue(channel.shutdownNow().awaitTermination(30, TimeUnit.SECONDS), "channel not terminated");
            }
            assertTrue(server.shutdownNow().awaitTermination(30, TimeUnit.SECONDS), "server not terminated");
        }
    }

    private static void assertNothingLeft(SharedUcxEventLoops loops) throws Exception {
        await(() -> loops.groups().isEmpty(), () -> "groups not released: " + loops.groups());
        await(() -> loopThreads().isEmpty(), () -> "UCX event loop threads left: " + loopThreads());
        // Every UCX loop of this JVM is a shared one, so with them gone no connection may be left.
        await(() -> nativeConnections() == 0, () -> "native UCX connections left: " + nativeConnections());
    }

    private static List<String> loopThreads() {
        List<String> names = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.isAlive() && thread.getName().startsWith(THREAD_PREFIX)) {
                names.add(thread.getName());
            }
        }
        return names;
    }

    private static long nativeConnections() {
        return UcxNative.connectionsAllocated();
    }

    private static void await(BooleanSupplier done, Supplier<String> failure)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(failure.get() + " after " + WAIT_SECONDS + " s");
            }
            Thread.sleep(10);
        }
    }
}
