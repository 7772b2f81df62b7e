/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.Spread;
import io.github.nettyucx.support.NettyTransport;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * How long a new connection takes: {@code connect()} until the connect future completes, then one byte echoed, then
 * {@code close()}, one connection after the other, from a client loop to a server loop of this process. UCX's
 * handshake (intros, hellos, worker addresses, endpoints) is the part this measures beyond TCP's. Transports
 * alternate within each run; each run reports the median and the 99th percentile of the whole sequence (connect
 * and echo), and the connections made per second.
 */
@Command(name = "ConnectBenchmark", mixinStandardHelpOptions = true,
        description = "Connection setup time: connect, one byte echoed, close; per transport, alternating.")
public final class ConnectBenchmark implements Callable<Integer> {
    @Option(names = "--transports", split = ",", defaultValue = "nio,epoll,ucx",
            description = "transports to compare (nio, epoll, io_uring, ucx, ucx-tcp)")
    private List<String> transports;
    @Option(names = "--connections", defaultValue = "2000", description = "measured connections per run")
    private int connections;
    @Option(names = "--warmup", defaultValue = "1000", description = "connections before measuring, per run")
    private int warmup;
    @Option(names = "--runs", defaultValue = "5", description = "runs; the transports alternate in each")
    private int runs;
    @Option(names = "--label", defaultValue = "", description = "suffix for the transport names in the results")
    private String label;
    @Option(names = "--out", description = "CSV file to append the per-run rows to")
    private Path out;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ConnectBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        for (int run = 1; run <= runs; run++) {
            List<String> order = new ArrayList<>(transports);
            if (run % 2 == 0) {
                java.util.Collections.reverse(order);
            }
            for (String name : order) {
                double[] row = measure(NettyTransport.of(name));
                results.computeIfAbsent(name, n -> new ArrayList<>()).add(row);
                String line = String.format("run %d/%d %s%s: median %.0f us, p99 %.0f us, %.0f connections/s",
                        run, runs, name, label, row[0], row[1], row[2]);
                System.out.println(line);
                append(name, run, row);
            }
        }
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            System.out.println(e.getKey() + label + ": median us " + spread(e.getValue(), 0).format("%.0f")
                    + "; p99 us " + spread(e.getValue(), 1).format("%.0f") + "; connections/s "
                    + spread(e.getValue(), 2).format("%.0f"));
        }
        return 0;
    }

    private static Spread spread(List<double[]> rows, int column) {
        List<Double> values = new ArrayList<>();
        for (double[] row : rows) {
            values.add(row[column]);
        }
        return Spread.of(values);
    }

    private void append(String transport, int run, double[] row) throws IOException {
        if (out == null) {
            return;
        }
        boolean header = !Files.exists(out);
        try (PrintStream csv = new PrintStream(Files.newOutputStream(out, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND), true, StandardCharsets.UTF_8)) {
            if (header) {
                csv.println("transport,run,median_us,p99_us,connections_per_s");
            }
            csv.printf("%s%s,%d,%.1f,%.1f,%.1f%n", transport, label, run, row[0], row[1], row[2]);
        }
    }

    /** {median µs, p99 µs, connections per second} of one run. */
    private double[] measure(NettyTransport transport) throws Exception {
        transport.ensureAvailable();
        EventLoopGroup serverGroup = transport.newEventLoopGroup(1, "connect-server");
        EventLoopGroup clientGroup = transport.newEventLoopGroup(1, "connect-client");
        try {
            Channel server = new ServerBootstrap().group(serverGroup).channel(transport.serverSocketChannel())
                    .childHandler(new Echo()).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            Bootstrap client = new Bootstrap().group(clientGroup).channel(transport.socketChannel())
                    .option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000);
            InetSocketAddress address = (InetSocketAddress) server.localAddress();
            for (int i = 0; i < warmup; i++) {
                once(client, address);
            }
            Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            long start = System.nanoTime();
            for (int i = 0; i < connections; i++) {
                histogram.recordValue(once(client, address));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            server.close().sync();
            return new double[] {histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
                connections / seconds};
        } finally {
            clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** One connection: connect, one byte there and back, close. Returns the nanoseconds until the echo. */
    private static long once(Bootstrap client, InetSocketAddress address) throws Exception {
        CompletableFuture<Void> echoed = new CompletableFuture<>();
        long start = System.nanoTime();
        Channel channel = client.clone().handler(new SimpleChannelInboundHandler<ByteBuf>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                echoed.complete(null);
            }
        }).connect(address).sync().channel();
        channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
        echoed.get(10, TimeUnit.SECONDS);
        long elapsed = System.nanoTime() - start;
        channel.close().sync();
        return elapsed;
    }

    @ChannelHandler.Sharable
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }
}
