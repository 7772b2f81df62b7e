/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.interop.Empty;
import io.github.nettyucx.grpc.interop.InteropServiceGrpc;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelProvider;
import io.grpc.Server;
import io.grpc.ServerProvider;
import io.netty.channel.Channel;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With {@code -Dio.github.nettyucx.grpc.enabled=false} the providers step aside: gRPC picks grpc-netty's, which
 * serves calls on its own channels, the providers make no event loop, and the reason is logged once. Runs in a
 * JVM of its own (the surefire execution {@code fallback}), since gRPC reads the providers once per JVM.
 */
class FallbackTest {
    private static final List<LogRecord> records = new ArrayList<>();
    /** Held here: java.util.logging keeps its loggers only weakly, and with them the handler. */
    private static Logger logger;

    @BeforeAll
    static void captureTheLog() {
        Assumptions.assumeTrue("false".equals(System.getProperty(GrpcTransportChoice.ENABLED_PROPERTY)),
                "runs where -D" + GrpcTransportChoice.ENABLED_PROPERTY + "=false");
        assertTrue(ChannelRecorder.enabled(), "the test needs -Dio.netty.bootstrap.extensions=serviceload");
        // Before the providers' first use, which is when the choice is made and logged.
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        logger = Logger.getLogger(GrpcTransportChoice.class.getName());
        logger.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                synchronized (records) {
                    records.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    /** After the tests, which asked the providers and built a server and channel. */
    @AfterAll
    static void theReasonWasLoggedOnce() {
        if (logger == null) {
            return;
        }
        synchronized (records) {
            assertEquals(1, records.size(), "log records: " + records.size());
            LogRecord record = records.get(0);
            assertEquals(Level.INFO, record.getLevel());
            assertTrue(record.getMessage().contains("-D" + GrpcTransportChoice.ENABLED_PROPERTY + "=false"),
                    record.getMessage());
        }
    }

    @Test
    void theProvidersStepAside() {
        assertFalse(new UcxManagedChannelProvider().isAvailable());
        assertFalse(new UcxServerProvider().isAvailable());
        assertEquals("io.grpc.netty.NettyChannelProvider", ManagedChannelProvider.provider().getClass().getName());
        assertEquals("io.grpc.netty.NettyServerProvider", ServerProvider.provider().getClass().getName());
    }

    @Test
    void grpcNettyServesTheCalls() throws Exception {
        Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new InteropServiceImpl()).build().start();
        ManagedChannel channel = Grpc.newChannelBuilder("127.0.0.1:" + server.getPort(),
                InsecureChannelCredentials.create()).build();
        try {
            assertEquals(Empty.getDefaultInstance(), InteropServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(30, TimeUnit.SECONDS).emptyCall(Empty.getDefaultInstance()));
            List<Channel> channels = new ArrayList<>(ChannelRecorder.listenersOn(server.getPort()));
            channels.addAll(ChannelRecorder.clientsTo(server.getPort()));
            channels.addAll(ChannelRecorder.acceptedOn(server.getPort()));
            assertEquals(3, channels.size(), channels.toString());
            for (Channel c : channels) {
                assertFalse(c.getClass().getName().startsWith("io.github.nettyucx."), c.getClass().getName());
            }
            assertTrue(SharedUcxEventLoops.INSTANCE.groups().isEmpty(), "the providers made event loops");
        } finally {
            channel.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
        }
    }
}
