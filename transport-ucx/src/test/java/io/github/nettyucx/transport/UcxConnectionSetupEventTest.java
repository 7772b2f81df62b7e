/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.SetupFailure;
import io.github.nettyucx.handshake.UcxConnectionSetupEvent;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The flight recorder's {@link UcxConnectionSetupEvent}: one for each end of a connection, with its data path, trust
 * and duration, and one for a connect that failed, with its reason; and the counters of
 * {@link UcxTransportMetrics} that the same setups move.
 */
class UcxConnectionSetupEventTest {
    private EventLoopGroup group;
    private Channel server;
    private final CountDownLatch childActive = new CountDownLatch(1);

    @TempDir
    Path dir;

    @BeforeEach
    void setUp() throws Exception {
        TestTransport.UCX.assumeAvailable();
        group = TestTransport.UCX.newGroup(1);
        server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        childActive.countDown();
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (server != null) {
            server.close().sync();
        }
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void eachEndOfAConnectionRecordsItsSetup() throws Exception {
        long opened = UcxTransportMetrics.connectionsOpened(DataPath.UCX);
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable(UcxConnectionSetupEvent.NAME);
            recording.start();
            Channel client = connect(server.localAddress()).sync().channel();
            assertTrue(childActive.await(10, TimeUnit.SECONDS), "the accepted channel never became active");
            client.close().sync();
            recording.stop();
            events = events(recording);
        }
        assertEquals(2, events.size(), events.toString());
        boolean[] sides = new boolean[2];
        for (RecordedEvent event : events) {
            assertEquals("UCX", event.getString("dataPath"), event.toString());
            assertEquals("mutual", event.getString("trust"), event.toString());
            assertNull(event.getString("failure"), event.toString());
            assertFalse(event.getDuration().isNegative() || event.getDuration().isZero(), event.toString());
            boolean accepted = event.getBoolean("accepted");
            sides[accepted ? 1 : 0] = true;
            String serverPort = ":" + ((InetSocketAddress) server.localAddress()).getPort();
            String serverEnd = event.getString(accepted ? "localAddress" : "remoteAddress");
            assertTrue(serverEnd != null && serverEnd.endsWith(serverPort), event.toString());
        }
        assertTrue(sides[0] && sides[1], "not one event for each end: " + events);
        assertEquals(opened + 2, UcxTransportMetrics.connectionsOpened(DataPath.UCX));
    }

    @Test
    void aConnectToAnotherProtocolRecordsItsFailure() throws Exception {
        long failures = UcxTransportMetrics.setupFailures(SetupFailure.PROTOCOL);
        List<RecordedEvent> events;
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Recording recording = new Recording()) {
            recording.enable(UcxConnectionSetupEvent.NAME);
            recording.start();
            Thread answer = new Thread(() -> {
                try (Socket s = other.accept(); OutputStream out = s.getOutputStream()) {
                    out.write("SSH-2.0-OpenSSH_9.2\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    s.getInputStream().read();
                } catch (IOException ignored) {
                    // the client closed first
                }
            });
            answer.start();
            ChannelFuture connect = connect(other.getLocalSocketAddress()).await();
            assertFalse(connect.isSuccess());
            connect.channel().closeFuture().await(10, TimeUnit.SECONDS);
            answer.join(10_000);
            recording.stop();
            events = events(recording);
        }
        assertEquals(1, events.size(), events.toString());
        RecordedEvent event = events.get(0);
        assertEquals("PROTOCOL", event.getString("failure"), event.toString());
        assertNull(event.getString("dataPath"), event.toString());
        assertFalse(event.getBoolean("accepted"));
        assertTrue(event.getString("message") != null && !event.getString("message").isEmpty(), event.toString());
        assertEquals(failures + 1, UcxTransportMetrics.setupFailures(SetupFailure.PROTOCOL));
    }

    private ChannelFuture connect(java.net.SocketAddress address) {
        return new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .handler(new ChannelInboundHandlerAdapter())
                .connect(address);
    }

    private List<RecordedEvent> events(Recording recording) throws IOException {
        Path file = dir.resolve("setup.jfr");
        recording.dump(file);
        List<RecordedEvent> events = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (event.getEventType().getName().equals(UcxConnectionSetupEvent.NAME)) {
                events.add(event);
            }
        }
        return events;
    }
}
