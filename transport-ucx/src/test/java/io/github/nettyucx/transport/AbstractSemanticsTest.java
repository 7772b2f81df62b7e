/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the stream-socket semantics tests ({@code *SemanticsTest}) share. Each of their test bodies runs
 * unchanged on NIO, epoll and UCX (see {@link TestTransport}); NIO and epoll are the cross-check that the test
 * itself is right. No exception may escape to Netty's logging during a test, and no buffer may leak in a class.
 */
abstract class AbstractSemanticsTest extends AbstractLeakCheckedTest {
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @BeforeEach
    void clearLog() {
        log.clear();
    }

    /** No exception may escape to Netty's logging (unhandled in a pipeline, thrown by a listener or task). */
    @AfterEach
    void noEscapedExceptions() {
        List<String> escaped = log.withThrowable();
        assertTrue(escaped.isEmpty(), () -> "exceptions logged during the test:\n" + String.join("\n", escaped));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Helpers

    static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
    }

    /** Waits for a promise, failing with its cause or with a timeout message. */
    static <T> T await(Future<T> future, int seconds, String what) throws Throwable {
        if (!future.await(seconds, TimeUnit.SECONDS)) {
            fail("timed out after " + seconds + " s waiting for " + what);
        }
        if (!future.isSuccess()) {
            throw new AssertionError("failed waiting for " + what + ": " + future.cause(), future.cause());
        }
        return future.getNow();
    }

    /** Server and client groups of one transport, shut down (and checked to terminate) on close. */
    static final class Env implements AutoCloseable {
        final TestTransport transport;
        final EventLoopGroup serverGroup;
        final EventLoopGroup clientGroup;

        Env(TestTransport transport, int serverThreads, int clientThreads) {
            transport.assumeTested();
            this.transport = transport;
            this.serverGroup = transport.newGroup(serverThreads);
            this.clientGroup = transport.newGroup(clientThreads);
        }

        /** A server bootstrap on the server group (one group for both the listener and its children). */
        ServerBootstrap serverBootstrap() {
            return new ServerBootstrap().group(serverGroup).channel(transport.serverChannelClass())
                    .childOption(ChannelOption.TCP_NODELAY, true);
        }

        Bootstrap clientBootstrap() {
            return new Bootstrap().group(clientGroup).channel(transport.clientChannelClass())
                    .option(ChannelOption.TCP_NODELAY, true);
        }

        @Override
        public void close() throws InterruptedException {
            Future<?> s = serverGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            Future<?> c = clientGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            boolean terminated = s.await(15, TimeUnit.SECONDS) & c.await(15, TimeUnit.SECONDS);
            assertTrue(terminated, transport + " event loop groups did not terminate within 15 s");
        }
    }
}
