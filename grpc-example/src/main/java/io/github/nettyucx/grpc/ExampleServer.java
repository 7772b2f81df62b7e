/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoopGroup;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Serves the key-value and echo services on a transport until it is stopped (Ctrl-C or SIGTERM), then
 * shuts down gracefully: calls in flight get up to 5 seconds to finish.
 */
public final class ExampleServer {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ExampleServer.class);
    static final String USAGE = "usage: ExampleServer [--transport ucx|epoll|nio|io_uring] [--host 127.0.0.1] "
            + "[--port 50051] [--allocator grpc|channel] [--threads 1]";

    private ExampleServer() {
    }

    public static void main(String[] args) throws Exception {
        CommandLine cl;
        NettyTransport transport;
        AllocatorChoice allocator;
        int port;
        int threads;
        try {
            cl = new CommandLine(args, Set.of("transport", "host", "port", "allocator", "threads"), Set.of(),
                    USAGE);
            transport = NettyTransport.of(cl.get("transport", "ucx"));
            allocator = AllocatorChoice.of(cl.get("allocator", "grpc"));
            port = cl.intValue("port", 50051);
            threads = cl.intValue("threads", 1);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        transport.ensureAvailable();
        InetSocketAddress address = new InetSocketAddress(cl.get("host", "127.0.0.1"), port);

        EventLoopGroup boss = transport.newEventLoopGroup(1, "grpc-boss");
        EventLoopGroup worker = transport.newEventLoopGroup(threads, "grpc-worker");
        Server server;
        try {
            server = start(address, transport, allocator, boss, worker);
        } catch (IOException e) {
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            worker.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IOException("cannot listen on " + address + " (is the port taken? choose another with --port)",
                    e);
        }
        logger.info("serving KeyValue and Echo on {} over {} (allocator: {})", server.getListenSockets(),
                transport.id(), allocator.id());

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop(server, boss, worker);
            stopped.countDown();
        }, "grpc-server-shutdown"));
        server.awaitTermination();
        stopped.await(10, TimeUnit.SECONDS);
    }

    static Server start(InetSocketAddress address, NettyTransport transport, AllocatorChoice allocator,
                        EventLoopGroup boss, EventLoopGroup worker) throws IOException {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(address);
        GrpcWiring.onTransport(builder, transport, boss, worker, allocator);
        return builder.addService(new KeyValueService()).addService(new EchoService()).build().start();
    }

    private static void stop(Server server, EventLoopGroup boss, EventLoopGroup worker) {
        logger.info("shutting down: calls in flight get 5 seconds");
        server.shutdown();
        try {
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                server.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        worker.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
