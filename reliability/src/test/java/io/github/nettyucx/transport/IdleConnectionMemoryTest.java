/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an idle connection costs each end, over UCX and over epoll side by side. A server process and a client
 * process ({@link IdleConnectionsPeer}, one event loop each) first open and close {@value #WARM_UP_CONNECTIONS}
 * connections, so that the code they run is compiled and the pools exist; then they open 100 and then 1,000
 * connections (10,000 as well in the long suite), each echoing 1 KiB once. After 2.5 idle seconds each process
 * reports its resident memory, its heap in use after a collection, its descriptors, and its CPU time over two
 * idle seconds. Both heaps are touched in full at start ({@code -XX:+AlwaysPreTouch}), so the resident growth is
 * native memory and the heap's growth is counted apart; a connection's cost is the sum of both, per connection.
 * Everything must be given back when the connections close. The figures go to
 * {@code target/idle-connection-memory.csv} and docs/reliability.md; no figure is asserted, the test fails only
 * when connections fail or leak. Epoll's side, which only gives the figures to compare with, runs in the long suite:
 * in CI it would only check Netty's own transport, for about half of this test's time.
 */
class IdleConnectionMemoryTest {
    private static final int WARM_UP_CONNECTIONS = 500;
    private static final long IDLE_MILLIS = 2_500;

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void idleConnectionsOverUcxAndEpoll() throws Exception {
        TestTransport.UCX.assumeAvailable();
        int[] counts = LongSuite.enabled() ? new int[] {100, 1_000, 10_000} : new int[] {100, 1_000};
        List<String> rows = new ArrayList<>();
        rows.add("transport,connections,end,rss_kib_per_connection,pss_kib_per_connection,heap_kib_per_connection,"
                + "rss_and_heap_kib_per_connection,fds_per_connection,idle_cpu_ms,open_ms");
        List<TestTransport> transports = new ArrayList<>(List.of(TestTransport.UCX));
        if (LongSuite.enabled() && Epoll.isAvailable()) {
            transports.add(0, TestTransport.EPOLL);
        }
        for (TestTransport transport : transports) {
            measure(transport, counts, rows);
        }
        Path csv = Paths.get("target", "idle-connection-memory.csv");
        Files.createDirectories(csv.getParent());
        Files.write(csv, rows, StandardCharsets.UTF_8);
        System.out.println("idle connection memory (" + csv + "):\n" + String.join("\n", rows));
    }

    private static void measure(TestTransport transport, int[] counts, List<String> rows) throws Exception {
        try (ChildJvm server = peer(transport, "server", "127.0.0.1")) {
            String port = server.awaitValue("PORT ");
            try (ChildJvm client = peer(transport, "client", "127.0.0.1", port)) {
                client.awaitLine("READY");
                open(client, WARM_UP_CONNECTIONS);
                close(client);
                Usage clientBase = Usage.of(client);
                Usage serverBase = Usage.of(server);
                int opened = 0;
                for (int count : counts) {
                    long openMillis = open(client, count - opened);
                    opened = count;
                    // UCX connections park after a second without a message, at their loop's next sweep (every
                    // half second, docs/settings.md#idle-connections): idle means after that.
                    Thread.sleep(IDLE_MILLIS);
                    long clientCpu = cpuNanos(client);
                    long serverCpu = cpuNanos(server);
                    Thread.sleep(2_000);
                    long clientIdleCpu = cpuNanos(client) - clientCpu;
                    long serverIdleCpu = cpuNanos(server) - serverCpu;
                    rows.add(row(transport, count, "client", clientBase, Usage.of(client), clientIdleCpu, openMillis));
                    rows.add(row(transport, count, "server", serverBase, Usage.of(server), serverIdleCpu, openMillis));
                }
                close(client);
                assertReturned(client, clientBase, transport + " client");
                assertReturned(server, serverBase, transport + " server");
            }
        }
    }

    private static ChildJvm peer(TestTransport transport, String... args) throws IOException {
        return ChildJvm.builder(IdleConnectionsPeer.class).name(transport + "-" + args[0])
                .jvmOption("-Dpeer.transport=" + transport).jvmOption("-Xms512m").jvmOption("-Xmx512m")
                .jvmOption("-XX:+AlwaysPreTouch").args(args).start();
    }

    /** Opens {@code count} connections; returns how long they took to connect and echo. */
    private static long open(ChildJvm client, int count) throws Exception {
        client.send("OPEN " + count);
        String[] opened = client.awaitLine("OPENED", 300).substring("OPENED".length()).trim().split(" ");
        assertEquals("0", opened[2], "connections failed");
        return Long.parseLong(opened[1]);
    }

    private static void close(ChildJvm client) throws Exception {
        client.send("CLOSE");
        client.awaitLine("CLOSED", 120);
    }

    private static long cpuNanos(ChildJvm peer) throws Exception {
        peer.send("CPU");
        return Long.parseLong(peer.awaitValue("CPU"));
    }

    private static String row(TestTransport transport, int count, String end, Usage base, Usage now, long idleCpu,
                              long openMillis) {
        double rss = (now.rss - base.rss) / 1024.0 / count;
        double pss = (now.pss - base.pss) / 1024.0 / count;
        double heap = (now.heap - base.heap) / 1024.0 / count;
        return String.format(Locale.ROOT, "%s,%d,%s,%.1f,%.1f,%.1f,%.1f,%.2f,%d,%d", transport, count, end, rss, pss,
                heap, rss + heap, (now.fds - base.fds) / (double) count, TimeUnit.NANOSECONDS.toMillis(idleCpu),
                openMillis);
    }

    private static void assertReturned(ChildJvm peer, Usage base, String what) throws Exception {
        int fds = base.fds;
        long nativeConnections = base.nativeConnections;
        Usage after = Usage.of(peer);
        for (int i = 0; i < 50 && (after.fds > fds || after.nativeConnections > nativeConnections); i++) {
            Thread.sleep(100);
            after = Usage.of(peer);
        }
        assertTrue(after.fds <= fds + 1, what + ": " + after.fds + " descriptors open, " + fds + " expected");
        assertEquals(nativeConnections, after.nativeConnections, what + ": native connections");
    }

    /** A peer's MEMORY line. */
    private static final class Usage {
        final long rss;
        final long heap;
        final int fds;
        final long nativeConnections;
        final long pss;

        private Usage(String[] words) {
            rss = Long.parseLong(words[0]);
            heap = Long.parseLong(words[1]);
            fds = Integer.parseInt(words[2]);
            nativeConnections = Long.parseLong(words[3]);
            pss = Long.parseLong(words[4]);
        }

        static Usage of(ChildJvm peer) throws Exception {
            peer.send("MEMORY");
            return new Usage(peer.awaitValue("MEMORY").split(" "));
        }
    }
}
