/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.support.NettyTransport;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * A framework's own server and client on a transport: what {@link ServerMain} and {@link ClientMain} run. Each
 * implementation uses the framework the way its users do, switching it to a transport in the one place its
 * integration documents.
 */
interface Framework {
    String id();

    /** What to measure for this framework. */
    List<Scenario> scenarios();

    /** Whether the framework can run on the transport (io_uring: only where its integration takes it). */
    default boolean supports(BenchTransport transport) {
        return transport.netty() != NettyTransport.IO_URING;
    }

    /** JVM options the server and client JVMs need for the transport (for example a switch of the framework's). */
    List<String> jvmOptions(BenchTransport transport);

    /** Starts a server that echoes each request's body and streams on request, on an ephemeral port. */
    Server serve(BenchTransport transport) throws Exception;

    /** A client of the server at {@code port} on this host. */
    Client connect(BenchTransport transport, int port) throws Exception;

    /** Waits as {@code wait} does; an interrupt ends the wait and stays set on the thread. */
    static void awaitQuietly(Wait wait) {
        try {
            wait.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A wait that can be interrupted. */
    interface Wait {
        void run() throws InterruptedException;
    }

    /** A running server. */
    interface Server extends AutoCloseable {
        int port();

        /** Stops the server; keeps the thread's interrupt status rather than throwing. */
        @Override
        void close();
    }

    /** A client, shared by the application threads that call it. */
    interface Client extends AutoCloseable {
        /** One request carrying {@code body}; returns once its whole answer has arrived. */
        void call(byte[] body) throws Exception;

        /**
         * Reads a server stream of {@code messageBytes}-byte messages, reporting each message's bytes, until
         * {@code stop} is true.
         */
        default void stream(int messageBytes, LongConsumer onBytes, BooleanSupplier stop) throws Exception {
            throw new UnsupportedOperationException(getClass().getSimpleName() + " has no stream scenario");
        }

        /**
         * Sends {@code bytes}-byte requests from the client's event loop, each as the previous answer arrives,
         * reporting each round trip's nanoseconds (on the loop), until {@code stop} is true.
         */
        default void loopPingPong(int bytes, LongConsumer roundTripNanos, BooleanSupplier stop) throws Exception {
            throw new UnsupportedOperationException(getClass().getSimpleName() + " has no loop ping-pong scenario");
        }

        /**
         * Writes {@code chunkBytes}-byte chunks from the calling thread, as fast as the connection takes them,
         * reporting each chunk's bytes, until {@code stop} is true; then has the server check what it received.
         */
        default void upload(int chunkBytes, LongConsumer onBytes, BooleanSupplier stop) throws Exception {
            throw new UnsupportedOperationException(getClass().getSimpleName() + " has no upload scenario");
        }

        /** Opens {@code count} more connections that stay idle until the returned handle is closed. */
        default AutoCloseable idleConnections(int count) throws Exception {
            if (count > 0) {
                throw new UnsupportedOperationException(getClass().getSimpleName() + " has no idle connections");
            }
            return () -> { };
        }

        /** Closes the client; keeps the thread's interrupt status rather than throwing. */
        @Override
        void close();
    }
}
