/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.UcxTrust;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A UCX echo server in a child JVM (so that a peer that crashes it cannot take the test JVM down), with one
 * well-behaved UCX connection from this JVM that must keep working whatever other peers do to the server.
 */
final class ProbedEchoServer implements AutoCloseable {
    private final ChildJvm child;
    private final InetSocketAddress address;
    private final Channel healthy;
    /** Native connections the healthy connection holds in the server: none on the TCP data path, one over UCX. */
    private final long healthyNativeConnections;
    private final BlockingQueue<String> echoes = new LinkedBlockingQueue<>();
    private int probes;

    /** Stops {@code server} and then the client loops of {@code group}, either of which may be null. */
    static void stop(ProbedEchoServer server, EventLoopGroup group) throws Exception {
        if (server != null) {
            server.close();
        }
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }

    ProbedEchoServer(EventLoopGroup group) throws Exception {
        this(group, new String[0]);
    }

    /**
     * A server whose JVM gets {@code jvmOptions} as well, such as {@code -Dio.github.nettyucx.trust=none} or the
     * {@code -Dpeer.*} settings {@link ReliabilityPeer} reads.
     */
    ProbedEchoServer(EventLoopGroup group, String... jvmOptions) throws Exception {
        // The tests read the server's log for what each bad peer got: none of those warnings may be held back.
        ChildJvm.Builder builder = ChildJvm.builder(ReliabilityPeer.class).name("echo-server")
                .jvmOption("-Dio.github.nettyucx.peerWarningsPer10s=100000")
                .args("echo-server", "127.0.0.1");
        for (String option : jvmOptions) {
            builder.jvmOption(option);
        }
        child = builder.start();
        address = new InetSocketAddress("127.0.0.1", Integer.parseInt(child.awaitValue(ReliabilityPeer.PORT)));
        healthy = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new LineReceiver(echoes))
                .connect(address).sync().channel();
        String lanes = ((UcxSocketChannel) healthy).ucxLanes().get(10, TimeUnit.SECONDS);
        healthyNativeConnections = DataPath.TCP_DATA_PATH.label().equals(lanes) ? 0 : 1;
        assertStillServing();
    }

    InetSocketAddress address() {
        return address;
    }

    ChildJvm child() {
        return child;
    }

    /** The server process is alive and the healthy connection still echoes, byte for byte. */
    void assertStillServing() throws Exception {
        String probe = "probe " + (++probes) + " " + System.nanoTime();
        healthy.writeAndFlush(Unpooled.copiedBuffer(probe + "\n", StandardCharsets.US_ASCII))
                .await(10, TimeUnit.SECONDS);
        String echo = echoes.poll(10, TimeUnit.SECONDS);
        assertTrue(child.isAlive(), "the server process died; output:\n" + child.output());
        assertTrue(healthy.isActive(), "the healthy connection was closed; server output:\n" + child.output());
        assertNotNull(echo, "no echo on the healthy connection; server output:\n" + child.output());
        assertEquals(probe, echo, "the healthy connection's stream was corrupted");
    }

    /** Native connections the server process holds (the healthy one counts). */
    long nativeConnections() throws IOException, InterruptedException {
        child.send("CONNECTIONS");
        return Long.parseLong(child.awaitValue(ReliabilityPeer.CONNECTIONS));
    }

    /**
     * Waits until the server holds only the healthy connection's native state (none where a server that does not
     * trust this JVM serves it over the TCP data path); fails otherwise.
     */
    void assertOnlyHealthyConnectionLeft(String after) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        long count;
        while ((count = nativeConnections()) != healthyNativeConnections && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(healthyNativeConnections, count, "native connections in the server " + after);
    }

    /** UCX messages the server process dropped as strays ({@link Ucx#strayMessagesDropped()}). */
    long strays() throws IOException, InterruptedException {
        child.send("STRAYS");
        return Long.parseLong(child.awaitValue(ReliabilityPeer.STRAYS));
    }

    /** UCP endpoints the server process created ({@link Ucx#endpointsCreated()}). */
    long endpoints() throws IOException, InterruptedException {
        child.send("ENDPOINTS");
        return Long.parseLong(child.awaitValue(ReliabilityPeer.ENDPOINTS));
    }

    /** UCP endpoints of the server process's connections open now ({@link Ucx#endpointsOpen()}). */
    long openEndpoints() throws IOException, InterruptedException {
        child.send("OPEN_ENDPOINTS");
        return Long.parseLong(child.awaitValue(ReliabilityPeer.OPEN_ENDPOINTS));
    }

    /** The healthy connection of this JVM: its worker has an endpoint in the server. */
    Channel healthy() {
        return healthy;
    }

    /** Handshakes in progress on the server channel. */
    int pendingHandshakes() throws IOException, InterruptedException {
        child.send("PENDING");
        return Integer.parseInt(child.awaitValue(ReliabilityPeer.PENDING));
    }

    /**
     * The id the server's UCX connection with the client at local port {@code clientPort} receives with (the
     * test hook of {@link ReliabilityPeer}'s IDS command); fails when the server has no such active connection.
     */
    long connectionIdOf(int clientPort) throws IOException, InterruptedException {
        return tagOf(clientPort).id;
    }

    /** What a message to a connection of the server must carry: the tag's parts and the header's key. */
    static final class ConnectionTag {
        final long id;
        final long tagSecret;
        final int messageKey;

        ConnectionTag(String text) {
            String[] parts = text.split(":");
            id = Long.parseLong(parts[0], 16);
            tagSecret = Long.parseLong(parts[1], 16);
            messageKey = Integer.parseUnsignedInt(parts[2], 16);
        }
    }

    /**
     * The tag and key the server's UCX connection with the client at local port {@code clientPort} receives with
     * (through the IDS test hook, as a sniffer of the clear-text hellos would learn them).
     */
    ConnectionTag tagOf(int clientPort) throws IOException, InterruptedException {
        // A client's connect completes on the server's address; the server's channel becomes active only when the
        // client's address arrived, half a round trip later.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String ids;
        do {
            child.send("IDS");
            ids = child.awaitValue(ReliabilityPeer.IDS);
            for (String entry : ids.split(" ")) {
                int equals = entry.indexOf('=');
                if (equals > 0 && Integer.parseInt(entry.substring(0, equals)) == clientPort) {
                    return new ConnectionTag(entry.substring(equals + 1));
                }
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the server has no active connection from port " + clientPort + ": " + ids);
    }

    /**
     * Connects a new client from this JVM (trusting whom {@code trust} says; null: the process default), checks
     * one echo and closes it. Returns how many UCP endpoints this JVM created for it: 1 over UCX, 0 over the TCP
     * data path.
     */
    long echoWithNewClient(EventLoopGroup group, UcxTrust trust) throws Exception {
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        long endpointsBefore = Ucx.endpointsCreated();
        Bootstrap b = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new LineReceiver(received));
        if (trust != null) {
            b.option(UcxChannelOption.TRUST, trust);
        }
        Channel client = b.connect(address).sync().channel();
        try {
            String line = "new client " + System.nanoTime();
            client.writeAndFlush(Unpooled.copiedBuffer(line + "\n", StandardCharsets.US_ASCII));
            assertEquals(line, received.poll(10, TimeUnit.SECONDS), "the new client's echo; server output:\n"
                    + child.output());
        } finally {
            client.close().sync();
        }
        return Ucx.endpointsCreated() - endpointsBefore;
    }

    /** The server's resident memory. */
    long rssBytes() throws IOException, InterruptedException {
        child.send("RSS");
        return Long.parseLong(child.awaitValue(ReliabilityPeer.RSS));
    }

    @Override
    public void close() throws Exception {
        healthy.close().sync();
        child.close();
    }
}
