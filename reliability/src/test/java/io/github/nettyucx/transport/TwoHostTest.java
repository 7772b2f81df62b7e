/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.ycsb.KvStoreClient;
import io.github.nettyucx.ycsb.YcsbOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Echo, gRPC and YCSB across two network namespaces ({@link TwoHosts}) over UCX's TCP transport. For echo and
 * gRPC the link is then cut in the middle of the stream: both ends must notice, like a dead peer, and the time
 * each end took is reported.
 */
class TwoHostTest {
    /** What the side channel's keepalive (10 s idle, 3 probes 2 s apart) and UCX's own allow, with margin. */
    private static final long DETECTION_SECONDS = 60;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void echoAcrossHostsThenCutTheLink() throws Exception {
        TestTransport.UCX.assumeAvailable();
        long streamSeconds = LongSuite.choose(5, 120);
        try (TwoHosts hosts = TwoHosts.create();
             ChildJvm server = hosts.start(1, ReliabilityPeer.class, "echo-server", TwoHosts.address(1))) {
            String port = server.awaitValue(ReliabilityPeer.PORT);
            try (ChildJvm client = hosts.start(0, ReliabilityPeer.class, "echo-client", TwoHosts.address(1), port)) {
                client.awaitLine(ReliabilityPeer.CONNECTED);
                long echoed = follow(client, ReliabilityPeer.ECHOED, streamSeconds);
                assertTrue(echoed > 0, "nothing echoed across the hosts; client output:\n" + client.output());
                System.out.println("two hosts: " + echoed + " messages of 16 KiB echoed in " + streamSeconds
                        + " s over UCX/TCP between " + TwoHosts.address(0) + " and " + TwoHosts.address(1));

                hosts.cutLink(0);
                long cutAt = System.nanoTime();
                String clientEnd = client.pollLine(ReliabilityPeer.INACTIVE, DETECTION_SECONDS);
                long clientMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
                String serverEnd = server.pollLine(ReliabilityPeer.INACTIVE, Math.max(1, DETECTION_SECONDS
                        - TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - cutAt)));
                long serverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
                System.out.println("two hosts, link cut on the client's side: client "
                        + (clientEnd == null ? "did NOT notice" : "inactive after " + clientMillis + " ms")
                        + ", server "
                        + (serverEnd == null ? "did NOT notice" : "inactive after " + serverMillis + " ms")
                        + " (within " + DETECTION_SECONDS + " s)\nclient exceptions: "
                        + exceptions(client) + "\nserver exceptions: " + exceptions(server));
                assertNotNull(clientEnd, "the client did not notice the cut link within " + DETECTION_SECONDS
                        + " s; output:\n" + client.output());
                assertNotNull(serverEnd, "the server did not notice the cut link within " + DETECTION_SECONDS
                        + " s; output:\n" + server.output());
            }
        }
    }

    /**
     * gRPC across the hosts: unary calls of 1 B to 1 MiB, then one bidi stream of checked 16 KiB messages. The
     * link is cut in the middle of the stream: the client's call must fail (UNAVAILABLE, as for a dead server)
     * and the server must see the call cancelled.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void grpcAcrossHostsThenCutTheLink() throws Exception {
        TestTransport.UCX.assumeAvailable();
        long streamSeconds = LongSuite.choose(5, 120);
        try (TwoHosts hosts = TwoHosts.create();
             ChildJvm server = hosts.start(1, ReliabilityPeer.class, "grpc-server", TwoHosts.address(1))) {
            String port = server.awaitValue(ReliabilityPeer.PORT);
            try (ChildJvm client = hosts.start(0, ReliabilityPeer.class, "grpc-client", TwoHosts.address(1), port)) {
                String unary = client.awaitLine(GrpcPeer.UNARY, 60);
                assertTrue(unary.endsWith(" ok"), unary + "; client output:\n" + client.output());
                long answers = follow(client, GrpcPeer.STREAMED, streamSeconds);
                assertTrue(answers > 0, "nothing streamed across the hosts; client output:\n" + client.output());
                System.out.println("two hosts, gRPC: " + unary.trim() + " (1 B-1 MiB), then " + answers
                        + " checked bidi answers of 16 KiB in " + streamSeconds + " s");

                hosts.cutLink(0);
                long cutAt = System.nanoTime();
                String failed = client.pollLine(GrpcPeer.FAILED, DETECTION_SECONDS);
                long clientMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
                String cancelled = server.pollLine(GrpcPeer.CALL_CANCELLED, Math.max(1, DETECTION_SECONDS
                        - TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - cutAt)));
                long serverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
                System.out.println("two hosts, gRPC, link cut on the client's side: client "
                        + (failed == null ? "did NOT notice" : "call failed after " + clientMillis + " ms: " + failed)
                        + "; server " + (cancelled == null ? "did NOT notice" : "call cancelled after " + serverMillis
                        + " ms") + " (within " + DETECTION_SECONDS + " s)");
                assertNotNull(failed, "the client's call did not fail within " + DETECTION_SECONDS
                        + " s of the cut; output:\n" + client.output());
                assertTrue(failed.startsWith(GrpcPeer.FAILED + "UNAVAILABLE"), failed);
                assertNotNull(cancelled, "the server did not see the call end within " + DETECTION_SECONDS
                        + " s of the cut; output:\n" + server.output());
                assertTrue(server.isAlive() && client.isAlive(), "a peer died instead of reporting the cut");
            }
        }
    }

    /**
     * YCSB's own client ({@code site.ycsb.Client}) on one host loads records into a kvstore server on the other
     * and runs workload A, all over UCX/TCP, with {@code dataintegrity=true}: every value read is checked
     * against what was written.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void ycsbWorkloadAAcrossHosts() throws Exception {
        TestTransport.UCX.assumeAvailable();
        int records = 1_000;
        long operations = LongSuite.choose(10_000, 200_000);
        try (TwoHosts hosts = TwoHosts.create();
             ChildJvm server = hosts.start(1, ReliabilityPeer.class, "kv-server", TwoHosts.address(1))) {
            String hostPort = TwoHosts.address(1) + ":" + server.awaitValue(ReliabilityPeer.PORT);
            YcsbOutput load = ycsb(hosts, hostPort, "-load", "-threads", "4", "-p", "recordcount=" + records);
            assertEquals(Map.of("OK", (long) records), load.returns("INSERT"), "load: " + load.returns("INSERT"));

            YcsbOutput run = ycsb(hosts, hostPort, "-t", "-threads", "8", "-p", "recordcount=" + records,
                    "-p", "operationcount=" + operations);
            for (String section : List.of("READ", "UPDATE", "VERIFY")) {
                assertEquals(Set.of("OK"), run.returns(section).keySet(),
                        section + " returned " + run.returns(section));
            }
            assertEquals(operations, run.returned("READ", "OK") + run.returned("UPDATE", "OK"));
            assertEquals(run.returned("READ", "OK"), run.returned("VERIFY", "OK"));
            server.send("RECORDS");
            assertEquals(Integer.toString(records), server.awaitValue(ReliabilityPeer.RECORDS));
            System.out.println("two hosts, YCSB: " + records + " records loaded, workload A " + operations
                    + " operations with 8 threads (" + run.returned("READ", "OK") + " reads verified) at "
                    + Math.round(run.throughput()) + " ops/s over UCX/TCP between " + TwoHosts.address(0) + " and "
                    + TwoHosts.address(1));
        }
    }

    /** Runs one YCSB phase with workload A on host 1 against the kvstore server at {@code hostPort}. */
    private static YcsbOutput ycsb(TwoHosts hosts, String hostPort, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("-db", KvStoreClient.class.getName(),
                "-P", Paths.get(System.getProperty("ycsb.workloads", "../ycsb-binding/workloads"), "workloada")
                        .toString(),
                "-p", "kvstore.hosts=" + hostPort, "-p", "kvstore.transport=ucx", "-p", "kvstore.iothreads=1",
                "-p", "dataintegrity=true", "-s"));
        command.addAll(List.of(args));
        try (ChildJvm ycsb = hosts.start(0, site.ycsb.Client.class, command.toArray(new String[0]))) {
            // A liveness bound, far above the seconds a phase takes.
            int exit = ycsb.awaitExit(240);
            String output = ycsb.output();
            System.out.println("---- YCSB " + String.join(" ", args) + "\n" + output);
            assertEquals(0, exit, "YCSB exited with " + exit);
            YcsbOutput parsed = YcsbOutput.parse(output);
            assertFalse(parsed.isEmpty(), "no YCSB summary in the output above");
            return parsed;
        }
    }

    /**
     * Reads the child's "PREFIX count ..." progress lines for {@code seconds}; each must come within 10 s and
     * none may report corruption. Returns the last count.
     */
    private static long follow(ChildJvm child, String prefix, long seconds) throws InterruptedException {
        long count = 0;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < until) {
            String line = child.awaitLine(prefix, 10);
            assertFalse(line.contains("CORRUPT"), line);
            count = Long.parseLong(line.substring(prefix.length()).trim().split(" ")[0]);
        }
        return count;
    }

    private static String exceptions(ChildJvm child) {
        StringBuilder out = new StringBuilder();
        for (String line : child.output().split("\n")) {
            if (line.startsWith(ReliabilityPeer.EXCEPTION)) {
                out.append("\n  ").append(line);
            }
        }
        return out.toString();
    }
}
