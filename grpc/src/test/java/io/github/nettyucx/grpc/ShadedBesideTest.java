/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.interop.Empty;
import io.github.nettyucx.grpc.interop.InteropServiceGrpc;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelProvider;
import io.grpc.Server;
import io.grpc.ServerProvider;
import io.netty.channel.Channel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * grpc-netty-shaded on the class path beside the providers, as when an application's dependencies bring both: the
 * service loader finds the shaded providers too, ours still rank first (priority 6 against their 5) and build on
 * UCX, and a channel that names the shaded builder (the way to choose a transport in code) still works: it reaches
 * a server of ours as a plain gRPC client over TCP, on shaded Netty's own loops.
 *
 * <p>Runs in the surefire execution {@code shaded}, the only one with grpc-netty-shaded on its class path, which
 * sets {@code -Dnettyucx.shadedBeside=true}; skipped elsewhere.
 */
class ShadedBesideTest {
    private static final String SHADED = "io.grpc.netty.shaded.io.grpc.netty.";

    private Server server;
    private ManagedChannel channel;

    @BeforeAll
    static void shadedBeside() {
        Assumptions.assumeTrue(Boolean.getBoolean("nettyucx.shadedBeside"),
                "runs in the surefire execution 'shaded', with grpc-netty-shaded on the class path");
        UcxChecks.requireUcx();
    }

    @BeforeEach
    void startServer() throws Exception {
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new InteropServiceImpl()).build().start();
    }

    @AfterEach
    void stop() throws Exception {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
        }
        server.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
    }

    @Test
    void bothAreFoundAndOursComeFirst() {
        List<String> channelProviders = new ArrayList<>();
        ServiceLoader.load(ManagedChannelProvider.class).forEach(p -> channelProviders.add(p.getClass().getName()));
        List<String> serverProviders = new ArrayList<>();
        ServiceLoader.load(ServerProvider.class).forEach(p -> serverProviders.add(p.getClass().getName()));
        assertTrue(channelProviders.contains(SHADED + "NettyChannelProvider"), channelProviders.toString());
        assertTrue(serverProviders.contains(SHADED + "NettyServerProvider"), serverProviders.toString());

        assertInstanceOf(UcxManagedChannelProvider.class, ManagedChannelProvider.provider());
        assertInstanceOf(UcxServerProvider.class, ServerProvider.provider());
    }

    @Test
    void providerBuiltCallsRunOnUcx() throws Exception {
        channel = Grpc.newChannelBuilder("127.0.0.1:" + server.getPort(), InsecureChannelCredentials.create())
                .build();
        call(channel);
        UcxChecks.assertOnUcx(server.getPort());
    }

    /**
     * The shaded builder named in code: its channel is shaded Netty's (which the test's recorder, an extension of
     * unshaded Netty, does not see) and the server accepts it as plain TCP on a UCX channel.
     */
    @Test
    void theShadedBuilderNamedStillWorks() throws Exception {
        channel = io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                .usePlaintext().build();
        call(channel);
        assertTrue(ChannelRecorder.clientsTo(server.getPort()).isEmpty(), "an unshaded client channel was made");
        List<Channel> accepted = ChannelRecorder.acceptedOn(server.getPort());
        assertFalse(accepted.isEmpty(), "no connection accepted");
        for (Channel c : accepted) {
            assertSame(UcxSocketChannel.class, c.getClass(), c.toString());
            String lanes = ((UcxSocketChannel) c).ucxLanes().get(30, TimeUnit.SECONDS);
            assertTrue(lanes.startsWith("plain TCP"), c + ": " + lanes);
        }
    }

    private static void call(ManagedChannel channel) {
        assertEquals(Empty.getDefaultInstance(), InteropServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(30, TimeUnit.SECONDS).emptyCall(Empty.getDefaultInstance()));
    }
}
