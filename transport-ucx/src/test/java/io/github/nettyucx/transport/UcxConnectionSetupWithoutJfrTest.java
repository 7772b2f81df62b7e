/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connections are set up and counted in a runtime without the {@code jdk.jfr} module (a jlink image, or
 * {@code --limit-modules}), where {@link UcxConnectionSetupEvent} cannot load: the transport must never touch it there.
 */
class UcxConnectionSetupWithoutJfrTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void aRuntimeWithoutJfrConnectsAndCounts() throws Exception {
        TestTransport.requireUcx();
        String java = ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java runs this JVM"));
        List<String> command = new ArrayList<>();
        command.add(java);
        command.add("--limit-modules");
        command.add("java.base,java.logging,java.management,java.naming,java.xml,jdk.unsupported");
        command.add("-Dio.netty.leakDetection.level=disabled");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(NoJfrPeer.class.getName());
        Path log = dir.resolve("peer.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean exited = process.waitFor(40, TimeUnit.SECONDS);
        if (!exited) {
            // A transport that touched the event class fails on a loop thread and hangs the peer's connect.
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(log);
        assertTrue(exited, "the peer did not finish: " + output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("jdk.jfr present: false"), output);
        assertTrue(output.contains("connections opened: 2"), output);
    }
}
