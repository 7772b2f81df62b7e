/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxConnectionSetup;
import io.github.nettyucx.handshake.UcxConnectionSetupEvent;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connections are set up and counted in a runtime without the {@code jdk.jfr} module (a jlink image, or
 * {@code --limit-modules}), where {@link UcxConnectionSetupEvent} cannot load: the transport must never touch it there.
 * Such a runtime needs X25519 for the handshake's owner keys: in {@code jdk.crypto.ec} before JDK 22, in java.base
 * since; without it the transport is unavailable and says which module to add. Where the JVM has {@code jdk.jfr} but
 * the flight recorder never ran, the event class is not loaded either (loading it sets up the recorder).
 */
class UcxConnectionSetupWithoutJfrTest {
    private static final String MODULES = "java.base,java.logging,java.management,java.naming,java.xml,jdk.unsupported";
    /** Whether X25519 comes from the jdk.crypto.ec module in this JDK (before 22; an empty module after). */
    private static final boolean EC_MODULE = x25519Module().equals("jdk.crypto.ec");

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void aRuntimeWithoutJfrConnectsAndCounts() throws Exception {
        TestTransport.requireUcx();
        Peer peer = run(MODULES + (EC_MODULE ? ",jdk.crypto.ec" : ""), null);
        assertTrue(peer.exited, "the peer did not finish: " + peer.output);
        assertEquals(0, peer.exitValue, peer.output);
        assertTrue(peer.output.contains("jdk.jfr present: false"), peer.output);
        assertTrue(peer.output.contains("connections opened: 2"), peer.output);
    }

    @Test
    @Timeout(60)
    void aJvmThatNeverRecordsNeverLoadsTheEvent() throws Exception {
        TestTransport.requireUcx();
        Peer peer = run(null, "-Xlog:class+load=info");
        assertTrue(peer.exited, "the peer did not finish: " + peer.output);
        assertEquals(0, peer.exitValue, peer.output);
        assertTrue(peer.output.contains("jdk.jfr present: true"), peer.output);
        assertTrue(peer.output.contains("connections opened: 2"), peer.output);
        assertTrue(peer.output.contains(UcxConnectionSetup.class.getName() + " "), "no class loading logged: "
                + peer.output);
        assertFalse(peer.output.contains(UcxConnectionSetupEvent.class.getName() + " "), peer.output);
    }

    @Test
    @Timeout(60)
    void aRuntimeWithoutX25519IsToldWhichModuleToAdd() throws Exception {
        TestTransport.requireUcx();
        Assumptions.assumeTrue(EC_MODULE, "X25519 is in java.base on this JDK: no runtime lacks it");
        Peer peer = run(MODULES, null);
        assertTrue(peer.exited, "the peer did not finish: " + peer.output);
        assertNotEquals(0, peer.exitValue, peer.output);
        assertTrue(peer.output.contains("jlink --add-modules jdk.crypto.ec"), peer.output);
    }

    private static String x25519Module() {
        try {
            return String.valueOf(java.security.KeyPairGenerator.getInstance("X25519").getProvider().getClass()
                    .getModule().getName());
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no X25519", e);
        }
    }

    /** Runs {@link NoJfrPeer} with {@code modules} only (all when null) and a JVM option (none when null). */
    private Peer run(String modules, String option) throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java runs this JVM"));
        List<String> command = new ArrayList<>();
        command.add(java);
        if (modules != null) {
            command.add("--limit-modules");
            command.add(modules);
        }
        if (option != null) {
            command.add(option);
        }
        command.add("-Dio.netty.leakDetection.level=disabled");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(NoJfrPeer.class.getName());
        Path log = dir.resolve("peer.log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        // Only the options above: a recording started from the environment would load the event class.
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        Process process = builder.start();
        boolean exited = process.waitFor(40, TimeUnit.SECONDS);
        if (!exited) {
            // A transport that touched the event class fails on a loop thread and hangs the peer's connect.
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        return new Peer(exited, exited ? process.exitValue() : -1, Files.readString(log));
    }

    private static final class Peer {
        final boolean exited;
        final int exitValue;
        final String output;

        Peer(boolean exited, int exitValue, String output) {
            this.exited = exited;
            this.exitValue = exitValue;
            this.output = output;
        }
    }
}
