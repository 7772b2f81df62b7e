/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import io.github.nettyucx.transport.UcxTransportMetrics;
import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.SetupFailure;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the agent moved, and the transport's counters, at the JVM's exit: one INFO line, and with
 * {@code metricsFile=PATH} a properties file, so that a test or a script can read what an unmodified application
 * did without its help (a Spark executor, an application under test).
 */
final class UcxAgentReport {
    static final int SOCKET = 0;
    static final int SERVER_SOCKET = 1;
    static final int DATAGRAM = 2;
    static final int LEFT = 3;
    private static final String[] CHANNEL_KEYS = {"socket", "serverSocket", "datagram", "left"};

    private static final InternalLogger logger = InternalLoggerFactory.getInstance("io.github.nettyucx.agent");
    private static final Map<AgentSettings.Transport, LongAdder> GROUPS = new EnumMap<>(AgentSettings.Transport.class);
    private static final LongAdder[] CHANNELS = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};

    static {
        for (AgentSettings.Transport t : AgentSettings.Transport.values()) {
            GROUPS.put(t, new LongAdder());
        }
    }

    private UcxAgentReport() {
    }

    static void groupMoved(AgentSettings.Transport transport) {
        GROUPS.get(transport).increment();
    }

    static void channelSwapped(int kind) {
        CHANNELS[kind].increment();
    }

    static void atExit(String metricsFile) {
        Thread hook = new Thread(() -> report(metricsFile), "netty-ucx-agent-report");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private static void report(String metricsFile) {
        // Best effort: a logging framework may have shut down before this hook runs (java.util.logging does), so the
        // file, where asked for, is the reliable record.
        try {
            logger.info("netty-ucx agent: {}", summary());
        } catch (RuntimeException | LinkageError e) {
            // Logging gone at exit: nothing to do about it here.
        }
        if (metricsFile != null) {
            try {
                write(Paths.get(metricsFile.replace("%p", Long.toString(ProcessHandle.current().pid()))));
            } catch (IOException | RuntimeException e) {
                System.err.println("netty-ucx agent: could not write " + metricsFile + ": " + e);
            }
        }
    }

    static String summary() {
        long groups = 0;
        StringBuilder byKind = new StringBuilder();
        for (Map.Entry<AgentSettings.Transport, LongAdder> e : GROUPS.entrySet()) {
            long n = e.getValue().sum();
            groups += n;
            if (n > 0) {
                byKind.append(byKind.length() == 0 ? "" : ", ").append(e.getKey().label).append(' ').append(n);
            }
        }
        long failures = 0;
        for (SetupFailure f : SetupFailure.values()) {
            failures += UcxTransportMetrics.setupFailures(f);
        }
        return groups + " event loop groups moved to UCX" + (groups > 0 ? " (" + byKind + ")" : "") + ", channels made"
                + " as UCX: " + CHANNELS[SOCKET].sum() + " client, " + CHANNELS[SERVER_SOCKET].sum() + " server, "
                + CHANNELS[DATAGRAM].sum() + " UDP, " + CHANNELS[LEFT].sum() + " left as they were; connections: "
                + UcxTransportMetrics.connectionsOpened(DataPath.UCX) + " over UCX, "
                + UcxTransportMetrics.connectionsOpened(DataPath.TCP_DATA_PATH) + " on the TCP data path, "
                + UcxTransportMetrics.connectionsOpened(DataPath.PLAIN_TCP) + " plain TCP, " + failures
                + " setups failed";
    }

    /** Written to a temporary file and moved, so that a reader never sees half of it. */
    private static void write(Path file) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("pid=").append(ProcessHandle.current().pid()).append('\n');
        for (Map.Entry<AgentSettings.Transport, LongAdder> e : GROUPS.entrySet()) {
            b.append("agent.groups.").append(e.getKey().label).append('=').append(e.getValue().sum()).append('\n');
        }
        for (int i = 0; i < CHANNELS.length; i++) {
            b.append("agent.channels.").append(CHANNEL_KEYS[i]).append('=').append(CHANNELS[i].sum()).append('\n');
        }
        for (DataPath p : DataPath.values()) {
            b.append("ucx.connections.").append(p.name()).append('=').append(UcxTransportMetrics.connectionsOpened(p))
                    .append('\n');
        }
        for (SetupFailure f : SetupFailure.values()) {
            b.append("ucx.setupFailures.").append(f.name()).append('=').append(UcxTransportMetrics.setupFailures(f))
                    .append('\n');
        }
        b.append("ucx.plainTcpFallbacks=").append(UcxTransportMetrics.plainTcpFallbacks()).append('\n');
        b.append("ucx.bytesSent=").append(UcxTransportMetrics.ucxBytesSent()).append('\n');
        b.append("ucx.bytesReceived=").append(UcxTransportMetrics.ucxBytesReceived()).append('\n');
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(b.toString());
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
