/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server that was writing to a client when the client closed its connection must still shut down
 * cleanly, and so must the client. Found with gRPC (bin/bench-grpc: a server-streaming call cancelled by a
 * client that then exited made the UCX server JVM abort when it stopped); reproduced here with plain Netty.
 * Server and client run in child JVMs ({@link StreamingServerPeer}, {@link LeavingClientPeer}) because what
 * fails is the process itself: an abort here would take the test JVM with it.
 */
class ServerShutdownAfterPeerLeftTest {
    /** The abort did not happen every time: UCX runs it thrice, the reference transports (the test's check) once. */
    private static final int ATTEMPTS = 3;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"EPOLL", "NIO"})
    void bothSidesStopCleanlyAfterTheClientLeftMidStream(NettyTransport transport) throws Exception {
        TestTransports.assumeAvailable(transport);
        runOnce(transport, 1);
    }

    @Test
    void bothSidesStopCleanlyAfterTheClientLeftMidStreamOnUcx() throws Exception {
        TestTransports.assumeAvailable(NettyTransport.UCX);
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            runOnce(NettyTransport.UCX, attempt);
        }
    }

    private static void runOnce(NettyTransport transport, int attempt) throws Exception {
        Process server = start(StreamingServerPeer.class, transport.name());
        Process client = null;
        try {
            int port = awaitPort(server);
            client = start(LeavingClientPeer.class, transport.name(), String.valueOf(port));
            String clientOutput = outputOf(client);
            assertEquals(0, client.exitValue(), "attempt " + attempt + ": the client JVM exited with "
                    + client.exitValue() + "; its output:\n" + clientOutput);

            server.getOutputStream().close();
            String serverOutput = outputOf(server);
            assertEquals(0, server.exitValue(), "attempt " + attempt + ": the server JVM exited with "
                    + server.exitValue() + " while stopping after the client had left; its output:\n" + serverOutput);
            assertTrue(serverOutput.contains("STOPPED"), "no STOPPED line; output:\n" + serverOutput);
        } finally {
            server.destroyForcibly();
            if (client != null) {
                client.destroyForcibly();
            }
        }
    }

    private static Process start(Class<?> main, String... args) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java runs this JVM"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-Dio.netty.leakDetection.level=disabled"));
        // nettyucx.childJvmArgs: JVM options bin/test gives the tests' JVMs and their children (no C2).
        Arrays.stream(System.getProperty("nettyucx.childJvmArgs", "").split(" "))
                .filter(option -> !option.isEmpty()).forEach(command::add);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Reads the server's output up to its {@code LISTENING <port>} line. */
    private static int awaitPort(Process server) throws Exception {
        CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
            StringBuilder line = new StringBuilder();
            StringBuilder all = new StringBuilder();
            try {
                InputStream in = server.getInputStream();
                int c;
                while ((c = in.read()) >= 0) {
                    all.append((char) c);
                    if (c != '\n') {
                        line.append((char) c);
                        continue;
                    }
                    if (line.toString().startsWith("LISTENING ")) {
                        return Integer.parseInt(line.substring("LISTENING ".length()).trim());
                    }
                    line.setLength(0);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            throw new IllegalStateException("the server JVM ended before listening; its output:\n" + all);
        });
        return port.get(60, TimeUnit.SECONDS);
    }

    /** Waits up to 60 s for the process to exit and returns the rest of its output. */
    private static String outputOf(Process p) throws Exception {
        CompletableFuture<String> rest = CompletableFuture.supplyAsync(() -> {
            try {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                p.getInputStream().transferTo(bytes);
                return bytes.toString(StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(output unreadable: " + e + ")";
            }
        });
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit within 60 s");
        return rest.get(10, TimeUnit.SECONDS);
    }
}
