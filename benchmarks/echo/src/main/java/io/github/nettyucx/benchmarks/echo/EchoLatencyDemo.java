/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.CommandLines;
import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The demo {@code bin/echo-demo} runs: an echo server in a second JVM, and a client here that sends
 * one message at a time and times each round trip. It runs over UCX and, for comparison, over
 * Netty's NIO transport, and prints percentiles for both.
 * <pre>
 * EchoLatencyDemo [--messages N] [--size BYTES] [--transports ucx,nio]
 * </pre>
 */
public final class EchoLatencyDemo {
    private EchoLatencyDemo() {
    }

    @Command(name = "bin/bench echo-demo", mixinStandardHelpOptions = true,
            description = "Echo round trips, one message in flight, the server in another JVM: UCX next to NIO.")
    private static final class Options {
        @Option(names = "--messages", paramLabel = "N", description = "round trips per transport "
                + "(default: ${DEFAULT-VALUE})")
        int messages = 100_000;

        @Option(names = "--size", paramLabel = "BYTES", description = "message size (default: ${DEFAULT-VALUE})")
        int size = 16;

        @Option(names = "--transports", split = ",", paramLabel = "ucx,nio",
                description = "ucx and/or nio, in this order (default: ${DEFAULT-VALUE})")
        List<String> transports = new ArrayList<>(List.of("ucx", "nio"));
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && "--serve".equals(args[0])) {
            serve(args[1]);
            return;
        }
        Options options = new Options();
        if (!CommandLines.parse("bin/bench echo-demo", options, args)) {
            return;
        }
        int messages = options.messages;
        int size = options.size;
        List<String> transports = options.transports;
        if (transports.contains("ucx") && !Ucx.isAvailable()) {
            System.err.println("UCX is not available: " + Ucx.unavailabilityCause().getMessage());
            System.exit(1);
        }
        System.out.printf("Echo round trips: %,d messages of %d B, one in flight, server in another JVM (%s)%n",
                messages, size, transports.contains("ucx") ? "UCX " + Ucx.ucxVersion() : "no UCX");
        List<String> rows = new ArrayList<>();
        for (String transport : transports) {
            rows.add(run(transport, messages, size));
        }
        System.out.println();
        System.out.printf("%-10s %10s %10s %10s %10s %10s %10s%n", "transport", "p50 us", "p90 us", "p99 us",
                "p99.9 us", "max us", "mean us");
        rows.forEach(System.out::println);
    }

    private static String run(String transport, int messages, int size) throws Exception {
        Process server = startServer(transport);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !line.startsWith("PORT ")) {
                throw new IllegalStateException("echo server (" + transport + ") did not start: " + line);
            }
            int port = Integer.parseInt(line.substring(5).trim());
            Histogram rtts = new Histogram(3);
            for (long rtt : pingPong(transport, port, messages, size)) {
                rtts.recordValue(rtt);
            }
            return String.format(Locale.ROOT, "%-10s %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f", transport,
                    micros(rtts, 50), micros(rtts, 90), micros(rtts, 99), micros(rtts, 99.9),
                    rtts.getMaxValue() / 1e3, rtts.getMean() / 1e3);
        } finally {
            server.getOutputStream().close();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static double micros(Histogram rtts, double percentile) {
        return rtts.getValueAtPercentile(percentile) / 1e3;
    }

    private static Process startServer(String transport) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(Arrays.asList(java, "-cp", System.getProperty("java.class.path")));
        // The server runs with the same transport settings as this process.
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith("io.github.nettyucx."))
                .forEach(name -> command.add("-D" + name + '=' + System.getProperty(name)));
        command.addAll(Arrays.asList(EchoLatencyDemo.class.getName(), "--serve", transport));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        return builder.start();
    }

    private static EventLoopGroup group(String transport) {
        return new MultiThreadIoEventLoopGroup(1,
                "ucx".equals(transport) ? UcxIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    /** Echo server: prints its port, serves until its standard input closes. */
    private static void serve(String transport) throws Exception {
        EventLoopGroup group = group(transport);
        try {
            Class<? extends ServerSocketChannel> type = "ucx".equals(transport)
                    ? UcxServerSocketChannel.class : NioServerSocketChannel.class;
            Channel server = new ServerBootstrap().group(group).channel(type)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new EchoHandler());
                        }
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            System.out.println("PORT " + ((InetSocketAddress) server.localAddress()).getPort());
            System.out.flush();
            while (System.in.read() >= 0) {
                // Wait for the client to close our standard input.
            }
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }

    private static long[] pingPong(String transport, int port, int messages, int size) throws Exception {
        System.out.printf("%s: ", transport);
        EventLoopGroup group = group(transport);
        try {
            PingPongHandler handler = new PingPongHandler(messages, size);
            Class<? extends SocketChannel> type = "ucx".equals(transport)
                    ? UcxSocketChannel.class : NioSocketChannel.class;
            Channel channel = new Bootstrap().group(group).channel(type).handler(handler)
                    .connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
            long[] result = handler.done.get(10, TimeUnit.MINUTES);
            channel.close().sync();
            return result;
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }

    private static final class EchoHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            cause.printStackTrace();
            ctx.close();
        }
    }

    /** Sends a message, waits for all of its bytes to come back, records the time, repeats. */
    private static final class PingPongHandler extends ChannelInboundHandlerAdapter {
        final CompletableFuture<long[]> done = new CompletableFuture<>();
        private final int warmup;
        private final long[] rtts;
        private final int size;
        private int sent;
        private int pendingBytes;
        private long startNanos;

        PingPongHandler(int messages, int size) {
            this.warmup = messages / 10;
            this.rtts = new long[messages];
            this.size = size;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            send(ctx);
        }

        private void send(ChannelHandlerContext ctx) {
            pendingBytes = size;
            ByteBuf message = ctx.alloc().buffer(size).writeZero(size);
            startNanos = System.nanoTime();
            ctx.writeAndFlush(message);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            pendingBytes -= buf.readableBytes();
            buf.release();
            if (pendingBytes > 0) {
                return;
            }
            long rtt = System.nanoTime() - startNanos;
            int index = sent - warmup;
            if (index >= 0) {
                rtts[index] = rtt;
            }
            sent++;
            int total = warmup + rtts.length;
            if (sent % (total / 10) == 0) {
                System.out.printf("%d%% ", sent * 100L / total);
                System.out.flush();
            }
            if (sent == total) {
                System.out.println();
                done.complete(rtts);
            } else {
                send(ctx);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
            ctx.close();
        }
    }
}
