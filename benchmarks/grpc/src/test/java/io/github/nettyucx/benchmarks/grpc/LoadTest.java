/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.grpc.AllocatorChoice;
import io.github.nettyucx.grpc.EchoService;
import io.github.nettyucx.grpc.GrpcWiring;
import io.github.nettyucx.grpc.LeakCheck;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.BindableService;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark's loads against a real echo server over UCX, with the executor choices the benchmark makes:
 * each load completes calls (or messages) that a window sees, and a failing call fails the window.
 */
@ExtendWith(LeakCheck.class)
class LoadTest {
    private static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    @Test
    void blockingStubsFromApplicationThreadsOnTheDefaultExecutor() throws Exception {
        try (Pair pair = new Pair(ExecutorChoice.DEFAULT, new EchoService())) {
            assertMeasuresCalls(Load.start(Scenario.parse("blocking:1024:4"), pair.channel));
        }
    }

    @Test
    void asyncStubsOnTheDirectExecutor() throws Exception {
        try (Pair pair = new Pair(ExecutorChoice.DIRECT, new EchoService())) {
            assertMeasuresCalls(Load.start(Scenario.parse("unary:1024:4"), pair.channel));
        }
    }

    @Test
    void asyncStubsOnTheDefaultExecutor() throws Exception {
        try (Pair pair = new Pair(ExecutorChoice.DEFAULT, new EchoService())) {
            assertMeasuresCalls(Load.start(Scenario.parse("unary:16:2"), pair.channel));
        }
    }

    @Test
    void aStreamCountsMessagesAndEndsWithoutFailureWhenStopped() throws Exception {
        try (Pair pair = new Pair(ExecutorChoice.DIRECT, new EchoService())) {
            Load load = Load.start(Scenario.parse("stream:1024"), pair.channel);
            LoadWindow w;
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (load.completed() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                w = LoadWindow.over(load, WINDOW_NANOS);
            } finally {
                load.close();
            }
            assertTrue(w.operations > 0, "no message arrived in the window");
            assertEquals(0, w.roundTrips.getTotalCount(), "a stream has no round trips");
        }
    }

    @Test
    void aFailingCallFailsTheWindowAndTheClose() throws Exception {
        // A server without the echo service answers every call with UNIMPLEMENTED.
        try (Pair pair = new Pair(ExecutorChoice.DEFAULT, null)) {
            for (String s : new String[] {"blocking:16:2", "unary:16:2", "stream:16"}) {
                Load load = Load.start(Scenario.parse(s), pair.channel);
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> LoadWindow.over(load, WINDOW_NANOS), s);
                assertTrue(e.getMessage().contains("UNIMPLEMENTED"), s + ": " + e.getMessage());
                assertThrows(IllegalStateException.class, load::close, s);
            }
        }
    }

    /** Waits for the load's first call, so that the window sees it running, then measures a window of it. */
    private static void assertMeasuresCalls(Load load) {
        LoadWindow w;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (load.completed() == 0 && System.nanoTime() < deadline) {
                load.check();
                Thread.sleep(10);
            }
            w = LoadWindow.over(load, WINDOW_NANOS);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            load.close();
        }
        assertTrue(w.roundTrips.getTotalCount() > 0, "no call answered in the window");
        assertTrue(w.operations > 0);
        assertTrue(w.roundTrips.getValueAtPercentile(50) > 0);
        assertTrue(w.rate() > 0);
    }

    /** An echo server (or one without services) and a channel to it on UCX, both with {@code executor}. */
    private static final class Pair implements AutoCloseable {
        private final EventLoopGroup boss;
        private final EventLoopGroup worker;
        private final EventLoopGroup client;
        private final Server server;
        final ManagedChannel channel;

        Pair(ExecutorChoice executor, BindableService service) throws Exception {
            NettyTransport transport = NettyTransport.UCX;
            transport.ensureAvailable();
            boss = transport.newEventLoopGroup(1, "load-test-boss");
            worker = transport.newEventLoopGroup(1, "load-test-worker");
            client = transport.newEventLoopGroup(1, "load-test-client");
            NettyServerBuilder sb = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0));
            GrpcWiring.onTransport(sb, transport, boss, worker, AllocatorChoice.GRPC);
            executor.applyTo(sb);
            if (service != null) {
                sb.addService(service);
            }
            server = sb.build().start();
            int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
            NettyChannelBuilder cb = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext();
            GrpcWiring.onTransport(cb, transport, client, AllocatorChoice.GRPC);
            executor.applyTo(cb);
            channel = cb.build();
            // Connected before any load starts, as the benchmark's client does.
            channel.getState(true);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (channel.getState(false) != ConnectivityState.READY && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        }

        @Override
        public void close() throws InterruptedException {
            channel.shutdownNow();
            server.shutdownNow();
            assertTrue(channel.awaitTermination(10, TimeUnit.SECONDS), "the channel did not terminate");
            assertTrue(server.awaitTermination(10, TimeUnit.SECONDS), "the server did not terminate");
            for (EventLoopGroup g : new EventLoopGroup[] {client, worker, boss}) {
                assertTrue(g.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS),
                        "an event loop group did not terminate");
            }
        }
    }
}
