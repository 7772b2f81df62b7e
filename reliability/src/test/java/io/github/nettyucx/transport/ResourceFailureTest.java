/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UCX resources that cannot be had, in a child JVM ({@link UcxProbe}): no usable transport, a worker that
 * cannot be created, endpoints that cannot be created because the two processes share no transport (and,
 * the TCP data path on, that they connect over it instead). Each must end in a clear exception, and the
 * process must not crash.
 */
class ResourceFailureTest {
    private static final String NO_TCP_DATA_PATH = "-Dio.github.nettyucx.tcpDataPath=never";

    @Test
    @Timeout(60)
    void noUsableTransport() throws Exception {
        try (ChildJvm probe = ChildJvm.builder(ReliabilityPeer.class).env("UCX_TLS", "nonexistent")
                .args("ucx-probe").start()) {
            String outcome = firstFailure(probe);
            probe.awaitLine(UcxProbe.DONE);
            System.out.println("UCX_TLS=nonexistent: " + outcome);
            assertEquals(0, probe.awaitExit(30), "the probe did not exit cleanly; output:\n" + probe.output());
        }
    }

    /**
     * Only System V shared memory allowed, in an IPC namespace where no segment can be created: the worker's
     * transports cannot start. Needs root (unshare).
     */
    @Test
    @Timeout(60)
    void workerCannotGetSharedMemory() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "needs root for unshare");
        try (ChildJvm probe = ChildJvm.builder(ReliabilityPeer.class)
                .prefix("unshare", "--ipc", "--mount", "--", "sh", "-c",
                        "echo 0 > /proc/sys/kernel/shmmni && mount -t tmpfs -o size=4k tmpfs /dev/shm"
                                + " && exec \"$0\" \"$@\"")
                .env("UCX_TLS", "sysv,posix,self")
                .args("ucx-probe").start()) {
            String outcome = firstFailure(probe);
            probe.awaitLine(UcxProbe.DONE);
            System.out.println("no shared memory: " + outcome);
            assertEquals(0, probe.awaitExit(30), "the probe did not exit cleanly; output:\n" + probe.output());
        }
    }

    /**
     * Server on TCP only, client on shared memory only, and the TCP data path switched off: no common
     * transport, so no endpoint.
     */
    @Test
    @Timeout(60)
    void endpointCannotBeCreated() throws Exception {
        try (ChildJvm server = ChildJvm.builder(ReliabilityPeer.class).env("UCX_TLS", "tcp")
                .jvmOption(NO_TCP_DATA_PATH).args("echo-server", "127.0.0.1").start()) {
            String port = server.awaitValue(ReliabilityPeer.PORT);
            try (ChildJvm probe = ChildJvm.builder(ReliabilityPeer.class).env("UCX_TLS", "sysv,self")
                    .jvmOption(NO_TCP_DATA_PATH).args("ucx-probe", "127.0.0.1", port).start()) {
                String connect = probe.awaitLine(UcxProbe.CONNECT, 30);
                probe.awaitLine(UcxProbe.DONE);
                System.out.println("no common transport: client " + connect);
                assertTrue(connect.startsWith(UcxProbe.CONNECT + "failed"), "connected without a common transport: "
                        + probe.output());
                assertEquals(0, probe.awaitExit(30), "the probe did not exit cleanly; output:\n" + probe.output());
            }
            assertTrue(server.isAlive(), "the server died; output:\n" + server.output());
            System.out.println("no common transport: server side said: " + server.output().lines()
                    .filter(l -> l.startsWith(ReliabilityPeer.EXCEPTION) || l.contains("WARN")).findFirst()
                    .orElse("nothing"));
        }
    }

    /** The same two sides with the TCP data path on (the default): they connect over it. */
    @Test
    @Timeout(60)
    void noCommonUcxTransportFallsBackToTheTcpDataPath() throws Exception {
        try (ChildJvm server = ChildJvm.builder(ReliabilityPeer.class).env("UCX_TLS", "tcp")
                .args("echo-server", "127.0.0.1").start()) {
            String port = server.awaitValue(ReliabilityPeer.PORT);
            try (ChildJvm probe = ChildJvm.builder(ReliabilityPeer.class).env("UCX_TLS", "sysv,self")
                    .args("ucx-probe", "127.0.0.1", port).start()) {
                String connect = probe.awaitLine(UcxProbe.CONNECT, 30);
                probe.awaitLine(UcxProbe.DONE);
                assertEquals(UcxProbe.CONNECT + "ok", connect, "output:\n" + probe.output());
                assertEquals(0, probe.awaitExit(30), "the probe did not exit cleanly; output:\n" + probe.output());
            }
        }
    }

    /** The first step that failed, which must carry a message naming the cause. */
    private static String firstFailure(ChildJvm probe) throws InterruptedException {
        String available = probe.awaitLine(UcxProbe.AVAILABLE, 30);
        if (available.startsWith(UcxProbe.AVAILABLE + "false")) {
            assertTrue(available.length() > (UcxProbe.AVAILABLE + "false ").length() + 10, "no cause given: "
                    + available);
            return available;
        }
        String group = probe.awaitLine(UcxProbe.GROUP, 30);
        assertTrue(group.startsWith(UcxProbe.GROUP + "failed"), "UCX worked although it should not: " + group + "; "
                + probe.output());
        return group;
    }
}
