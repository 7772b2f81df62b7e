/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxIoHandler;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The loop's side of bug 12 (docs/reliability.md): the shared-memory probe a loop sends after a same-host peer
 * vanished, and the replacement of a UCP worker whose receive queue is stuck. A real stuck queue needs a peer
 * killed at the wrong moment ({@link PeerDeathTest#aLoopWhoseQueueAKilledSenderBlockedGetsANewWorker}, opt-in);
 * here the loop is told to probe and to replace its worker directly, and everything around it is checked.
 */
class WorkerReplacementTest extends AbstractLeakCheckedTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int ECHO_BYTES = 1 << 20;

    private static final class Env implements AutoCloseable {
        final EventLoopGroup serverGroup = TestTransport.UCX.newGroup(1);
        final EventLoopGroup clientGroup = TestTransport.UCX.newGroup(1);
        final BlockingQueue<Echo> accepted = new LinkedBlockingQueue<>();
        final Channel server;

        Env() throws InterruptedException {
            server = new ServerBootstrap().group(serverGroup).channel(UcxServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            Echo echo = new Echo();
                            accepted.add(echo);
                            ch.pipeline().addLast(echo);
                        }
                    })
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
        }

        /** A client connection that has echoed {@link #ECHO_BYTES} intact. */
        Channel echoingClient(EchoChecker checker) throws Exception {
            Channel client = new Bootstrap().group(clientGroup).channel(UcxSocketChannel.class).handler(checker)
                    .connect(server.localAddress()).sync().channel();
            assertEquals(ECHO_BYTES, checker.echoed.get(20, TimeUnit.SECONDS));
            return client;
        }

        @Override
        public void close() throws InterruptedException {
            server.close().await(5, TimeUnit.SECONDS);
            clientGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
            serverGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }

    private static UcxIoHandler handlerOf(Channel channel) {
        return UcxIoHandler.of(((AbstractUcxChannel) channel).registration());
    }

    /** Reads a counter of {@code channel}'s loop on that loop (the channel may be closed by then). */
    private static long probesArrived(UcxIoHandler handler) {
        return handler.sharedMemoryProbe().probesArrived();
    }

    private static long workersReplaced(UcxIoHandler handler) {
        return handler.sharedMemoryProbe().workersReplaced();
    }

    private static long onLoop(Channel channel, UcxIoHandler handler, ToLongFunction<UcxIoHandler> counter)
            throws Exception {
        return channel.eventLoop().submit(() -> counter.applyAsLong(handler)).get(5, TimeUnit.SECONDS);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aWorkingQueuePassesTheProbeAndTheConnectionsStay() throws Exception {
        TestTransport.UCX.assumeAvailable();
        try (Env env = new Env()) {
            EchoChecker checker = new EchoChecker(ECHO_BYTES);
            Channel client = env.echoingClient(checker);
            UcxIoHandler handler = handlerOf(client);
            long descriptorsBefore = OpenDescriptors.targets().size();
            // The loop is idle, so it judges the probe from its sleep.
            client.eventLoop().submit(() -> handler.sharedMemoryProbe().sameHostPeerVanished()).sync();
            Await.until(() -> onLoop(client, handler, WorkerReplacementTest::probesArrived) != 0, 10, TimeUnit.SECONDS);
            assertEquals(1, onLoop(client, handler, WorkerReplacementTest::probesArrived), "the probe did not arrive");
            assertEquals(0, onLoop(client, handler, WorkerReplacementTest::workersReplaced));
            assertTrue(client.isActive(), "a passed probe closed a connection");
            // A second probe (each has a worker of its own, freed with it).
            client.eventLoop().submit(() -> handler.sharedMemoryProbe().sameHostPeerVanished()).sync();
            Await.until(() -> onLoop(client, handler, WorkerReplacementTest::probesArrived) != 1, 10, TimeUnit.SECONDS);
            assertEquals(2, onLoop(client, handler, WorkerReplacementTest::probesArrived),
                    "the second probe did not arrive");
            assertEquals(descriptorsBefore, OpenDescriptors.targets().size(),
                    "the probes' workers kept descriptors open");
            assertTrue(checker.exceptions.isEmpty(), "exceptions: " + checker.exceptions);
            client.close().sync();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aReplacedWorkerTakesItsConnectionsAlongAndTheLoopGoesOn() throws Exception {
        TestTransport.UCX.assumeAvailable();
        long connectionsBefore = NativeConnections.settled();
        try (Env env = new Env()) {
            EchoChecker firstChecker = new EchoChecker(ECHO_BYTES);
            EchoChecker secondChecker = new EchoChecker(ECHO_BYTES);
            Channel first = env.echoingClient(firstChecker);
            Channel second = env.echoingClient(secondChecker);
            Echo firstAccepted = env.accepted.poll(5, TimeUnit.SECONDS);
            assertNotNull(firstAccepted);
            UcxIoHandler handler = handlerOf(first);
            // With a probe in flight, as after a real stuck queue.
            first.eventLoop().submit(() -> {
                handler.sharedMemoryProbe().sameHostPeerVanished();
                handler.sharedMemoryProbe().replaceWorker();
            }).sync();

            for (Channel client : new Channel[] {first, second}) {
                assertTrue(client.closeFuture().await(5, TimeUnit.SECONDS), client + " still open");
            }
            for (EchoChecker checker : new EchoChecker[] {firstChecker, secondChecker}) {
                assertTrue(checker.exceptions.stream().anyMatch(e -> e instanceof IOException
                        && e.getMessage().contains("shared-memory receive queue")), "cause: " + checker.exceptions);
            }
            assertEquals(1, onLoop(first, handler, WorkerReplacementTest::workersReplaced));
            // The server's side sees a reset, not an orderly close.
            Await.until(() -> !firstAccepted.exceptions.isEmpty(), 5, TimeUnit.SECONDS);
            assertTrue(firstAccepted.exceptions.stream().anyMatch(e -> e instanceof IOException),
                    "server side: " + firstAccepted.exceptions);

            // The same loop connects and echoes again, on its new worker.
            EchoChecker againChecker = new EchoChecker(ECHO_BYTES);
            Channel again = env.echoingClient(againChecker);
            assertTrue(again.eventLoop() == first.eventLoop());
            assertTrue(againChecker.exceptions.isEmpty(), "exceptions: " + againChecker.exceptions);
            again.close().sync();
        }
        NativeConnections.assertBackTo(connectionsBefore, 10, "none left allocated");
    }
}
