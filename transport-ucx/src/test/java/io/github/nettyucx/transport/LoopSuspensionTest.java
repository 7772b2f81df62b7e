/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.loop.UcxIoHandlerConfig;
import io.github.nettyucx.jni.UcxNativeWorker;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.AutoScalingEventExecutorChooserFactory;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * UCX connections on the loops of an auto-scaling group ({@link AutoScalingEventExecutorChooserFactory}), which
 * suspends an idle loop (its thread ends) and resumes it on a new thread when a task arrives. Netty never
 * suspends a loop that has channels registered, so a loop's connections are closed before it goes, and the
 * connections that follow are new ones on the same UCP worker, now driven by another thread.
 */
class LoopSuspensionTest extends AbstractLeakCheckedTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int LOOPS = 2;
    private static final int CONNECTIONS = 2;
    private static final int ECHO_BYTES = 1 << 20;
    /** Within one receive window, so that all of it is sent before the close (the rest would fail with it). */
    private static final int LAST_BYTES = 256 << 10;
    private static final long SEED = 11;
    /** Generous: the group suspends an idle loop within a few of its windows. */
    private static final long SUSPEND_SECONDS = 60;
    /**
     * The clients' connect timeout: short, so that a scheduled check left behind by a connect (a loop with a
     * scheduled task is not suspended) shows as a slow test rather than waits for the default 30 s. The check that
     * a UCX endpoint came up goes with its channel's close (UcxConnectorTest).
     */
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    /**
     * A group whose loops may all be suspended, so that the loop a test watches is suspended whatever the
     * others do; its utilization windows are short, so that an idle loop goes soon.
     */
    private static EventLoopGroup scalingGroup() {
        return new UcxEventLoopGroup(LOOPS, (Executor) null, new AutoScalingEventExecutorChooserFactory(0, LOOPS,
                100, TimeUnit.MILLISECONDS, 0.2, 0.9, LOOPS, LOOPS, 1), new UcxIoHandlerConfig());
    }

    /** A server on a fixed group of its own, so that only the client loops can be suspended. */
    private static final class Env implements AutoCloseable {
        final EventLoopGroup scaling = scalingGroup();
        final EventLoop loop = (EventLoop) scaling.iterator().next();
        final EventLoopGroup peers = TestTransport.UCX.newGroup(1);
        final Channel server;

        Env(Supplier<ChannelHandler> childHandler) throws InterruptedException {
            server = new ServerBootstrap().group(peers).channel(UcxServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(childHandler.get());
                        }
                    })
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
        }

        Channel connect(ChannelHandler handler) throws InterruptedException {
            return new Bootstrap().group(loop).channel(UcxSocketChannel.class).handler(handler)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                    .connect(server.localAddress()).sync().channel();
        }

        /** Connections on {@link #loop} that each echoed {@link #ECHO_BYTES} intact, both ways. */
        List<Channel> echoingClients() throws Exception {
            List<Channel> clients = new ArrayList<>();
            List<EchoChecker> checkers = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                EchoChecker checker = new EchoChecker(ECHO_BYTES);
                checkers.add(checker);
                clients.add(connect(checker));
            }
            for (EchoChecker checker : checkers) {
                assertEquals(ECHO_BYTES, checker.echoed.get(30, TimeUnit.SECONDS));
                assertTrue(checker.exceptions.isEmpty(), "exceptions: " + checker.exceptions);
            }
            return clients;
        }

        /** Waits until the group has suspended {@link #loop} and the thread that ran it has ended. */
        void awaitSuspended(Thread ranOn) throws InterruptedException {
            assertTrue(Await.until(() -> loop.isSuspended() && !ranOn.isAlive(), SUSPEND_SECONDS, TimeUnit.SECONDS),
                    "the idle loop was not suspended (suspended: " + loop.isSuspended() + ", its thread alive: "
                            + ranOn.isAlive() + ")");
        }

        <T> T onLoop(Callable<T> task) throws Exception {
            return loop.submit(task).get(10, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws InterruptedException {
            server.close().await(5, TimeUnit.SECONDS);
            scaling.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
            peers.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }

    private static UcxIoHandler handlerOf(Channel channel) {
        return UcxIoHandler.of(((AbstractUcxChannel) channel).registration());
    }

    private static void closeAll(List<Channel> channels) throws InterruptedException {
        for (Channel channel : channels) {
            channel.close().sync();
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aSuspendedLoopResumesOnAnotherThreadWithItsWorkerAndCarriesData() throws Exception {
        TestTransport.UCX.assumeAvailable();
        long connectionsBefore = NativeConnections.settled();
        try (Env env = new Env(Echo::new)) {
            List<Channel> before = env.echoingClients();
            UcxIoHandler handler = handlerOf(before.get(0));
            Thread firstThread = env.onLoop(Thread::currentThread);
            UcxNativeWorker worker = env.onLoop(() -> handler.worker().nativeWorker());
            byte[] workerAddress = env.onLoop(() -> handler.worker().workerAddress());
            closeAll(before);

            env.awaitSuspended(firstThread);

            // Connecting registers the channels, a task that resumes the loop.
            List<Channel> after = env.echoingClients();
            assertNotSame(firstThread, env.onLoop(Thread::currentThread), "the loop resumed on its old thread");
            for (Channel channel : after) {
                assertSame(handler, handlerOf(channel), "a new handler");
            }
            assertSame(worker, env.onLoop(() -> handler.worker().nativeWorker()), "a new worker");
            assertArrayEquals(workerAddress, env.onLoop(() -> handler.worker().workerAddress()),
                    "another UCP worker");
            closeAll(after);
        }
        NativeConnections.assertBackTo(connectionsBefore, 10, "none left allocated");
    }

    /** Checks that it receives a {@link DataStream}; {@link #received} completes with its length at the end. */
    private static final class Sink extends ChannelInboundHandlerAdapter {
        private final DataStream expected = new DataStream(SEED);
        final Promise<Long> received = ImmediateEventExecutor.INSTANCE.newPromise();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                String mismatch = expected.check(buf);
                if (mismatch != null) {
                    received.tryFailure(new AssertionError(mismatch));
                }
            } finally {
                buf.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            received.trySuccess(expected.position());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            received.tryFailure(cause);
            ctx.close();
        }
    }

    /**
     * A connection closed right after its last write lingers on its worker until the peer has read its end
     * (ucx_linger.c); while it does, its loop, though it has no registration left, must keep running, or the
     * peer waits for those bytes until the loop resumes. Here the peer's loop is held up, so the connection
     * lingers for as long as the test says.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aLoopWithAClosedConnectionStillLingeringStaysUpUntilItsBytesArrived() throws Exception {
        TestTransport.UCX.assumeAvailable();
        assumeFalse("always".equals(System.getProperty("io.github.nettyucx.tcpDataPath")),
                "the TCP data path has no native connection to linger: its last bytes wait in the kernel's socket");
        long connectionsBefore = NativeConnections.settled();
        Sink sink = new Sink();
        try (Env env = new Env(() -> sink)) {
            Channel client = env.connect(new ChannelInboundHandlerAdapter());
            UcxIoHandler handler = handlerOf(client);
            Thread thread = env.onLoop(Thread::currentThread);
            CountDownLatch blocked = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            env.peers.next().execute(() -> {
                blocked.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                assertTrue(blocked.await(10, TimeUnit.SECONDS), "the peer's loop did not run the blocking task");
                ByteBuf data = client.alloc().directBuffer(LAST_BYTES);
                new DataStream(SEED).writeTo(data, LAST_BYTES);
                client.writeAndFlush(data);
                client.close().sync();
                // Netty deregisters a channel after its close: from then on only the guard holds the loop.
                assertTrue(Await.until(() -> env.onLoop(() -> handler.workerBusyCheckScheduled()), 10,
                        TimeUnit.SECONDS), "nothing keeps the loop from being suspended");
                assertTrue(env.onLoop(() -> handler.worker().hasClosingConnections()),
                        "the connection no longer lingers, though its peer has not read its end");
            } finally {
                release.countDown();
            }
            assertEquals(LAST_BYTES, sink.received.get(30, TimeUnit.SECONDS), "bytes the peer received");

            // Once the connection is freed, nothing holds the loop any more.
            env.awaitSuspended(thread);
        }
        NativeConnections.assertBackTo(connectionsBefore, 10, "none left allocated");
    }
}
