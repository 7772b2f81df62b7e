/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.grpc.AllocatorChoice;
import io.github.nettyucx.grpc.EchoService;
import io.github.nettyucx.grpc.GrpcWiring;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoopGroup;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The server JVM of a benchmark run: the echo service on 127.0.0.1 and a free port, which it prints as
 * {@code LISTENING <port>}. It stops when its standard input closes (the coordinator's way to end it).
 */
public final class BenchServer {
    /** What the server prints, followed by its port, once it listens. */
    static final String LISTENING = "LISTENING ";

    /**
     * Every streaming scenario ends with the client cancelling a stream the server is writing to, which
     * grpc-netty logs as a WARNING with a stack trace ("Stream closed before write could take place").
     * Held in a field: java.util.logging keeps loggers only weakly, and a collected logger loses its level.
     */
    private static final Logger STREAM_ERRORS = Logger.getLogger("io.grpc.netty.NettyServerHandler");

    private BenchServer() {
    }

    /** What {@link VariantRun} starts this JVM with. */
    @Command(name = "BenchServer")
    private static final class Options {
        @Option(names = "--transport")
        String transport = "ucx";

        @Option(names = "--allocator", description = "grpc or channel")
        String allocator = "grpc";

        @Option(names = "--executor", description = "direct or default")
        String executor = "direct";

        @Option(names = "--threads", description = "worker event loops")
        int threads = 1;
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options();
        new CommandLine(options).parseArgs(args);
        NettyTransport transport = NettyTransport.of(options.transport);
        AllocatorChoice allocator = AllocatorChoice.of(options.allocator);
        ExecutorChoice executor = ExecutorChoice.of(options.executor);
        transport.ensureAvailable();
        STREAM_ERRORS.setLevel(Level.SEVERE);

        EventLoopGroup boss = transport.newEventLoopGroup(1, "bench-boss");
        EventLoopGroup worker = transport.newEventLoopGroup(options.threads, "bench-worker");
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0));
        GrpcWiring.onTransport(builder, transport, boss, worker, allocator);
        executor.applyTo(builder);
        Server server = builder.addService(new EchoService()).build().start();
        System.out.println(LISTENING + ((InetSocketAddress) server.getListenSockets().get(0)).getPort());
        System.out.flush();

        InputStream in = System.in;
        while (in.read() >= 0) {
            // Nothing is sent on stdin: end of input is the signal to stop.
        }
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        worker.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
