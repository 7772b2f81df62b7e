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
import io.grpc.Server;

import java.util.concurrent.TimeUnit;

/**
 * The main class of {@link JvmExitTest}'s child JVM: an application that starts a gRPC server and channel, makes
 * one call, prints the channel classes Netty made, and returns from {@code main} without shutting anything down.
 */
public final class ExitingApp {
    private ExitingApp() {
    }

    public static void main(String[] args) throws Exception {
        Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new InteropServiceImpl()).build().start();
        ManagedChannel channel = Grpc.newChannelBuilder("127.0.0.1:" + server.getPort(),
                InsecureChannelCredentials.create()).build();
        InteropServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .emptyCall(Empty.getDefaultInstance());
        System.out.println("called over " + ChannelRecorder.clientsTo(server.getPort()).get(0).getClass().getName());
    }
}
