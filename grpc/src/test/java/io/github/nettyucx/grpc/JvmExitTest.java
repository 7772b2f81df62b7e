/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The providers' event loops do not keep a JVM alive: an application that returns from {@code main} with its
 * gRPC server and channel still open ({@link ExitingApp}) exits, and its shutdown hooks, the providers' among
 * them, run to the end.
 */
class JvmExitTest {
    @Test
    void aJvmWithOpenServerAndChannelExits() throws Exception {
        UcxChecks.requireUcx();
        Path output = Files.createTempFile("exiting-app", ".txt");
        Process child = new ProcessBuilder(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + ChannelRecorder.EXTENSIONS_SYSTEM_PROPERTY + "=serviceload",
                "-cp", System.getProperty("java.class.path"), ExitingApp.class.getName()))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            boolean exited = child.waitFor(50, TimeUnit.SECONDS);
            String text = Files.readString(output, StandardCharsets.UTF_8);
            assertTrue(exited, "the JVM is still running:\n" + text);
            assertEquals(0, child.exitValue(), text);
            assertTrue(text.contains("called over io.github.nettyucx.transport.UcxSocketChannel"), text);
        } finally {
            child.destroyForcibly();
            new File(output.toString()).delete();
        }
    }
}
