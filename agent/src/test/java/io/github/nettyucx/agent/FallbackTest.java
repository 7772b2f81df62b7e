/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import io.github.nettyucx.agent.app.PlainNettyApp;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the agent must not move the application, it runs on its own transport as if the agent were not there, and
 * one WARN says why.
 */
class FallbackTest {
    private static final String WARN = "netty-ucx agent: the application keeps Netty's own transports: ";

    @Test
    void netty41RunsUnchangedWithOneWarning() throws Exception {
        String release = AppJvm.netty41();
        AppJvm.Run plain = AppJvm.run(release, null, Map.of(), PlainNettyApp.class, "echo");
        AppJvm.Run agent = AppJvm.run(release, "", Map.of(), PlainNettyApp.class, "echo");
        assertEquals(0, plain.exit, plain.output);
        assertEquals(0, agent.exit, agent.output);
        assertEquals(2, plain.results().size(), plain.output);
        assertEquals(plain.results(), agent.results(), agent.output);
        assertEquals(1, agent.count("netty-ucx agent"), agent.output);
        assertEquals(1, agent.count(WARN + "Netty " + release + " has no IoHandler API"), agent.output);
        assertTrue(agent.report.isEmpty(), agent.output);
    }

    @Test
    void whereUcxCannotRunTheApplicationRunsUnchangedWithOneWarning() throws Exception {
        // A shared-memory segment over 65,535 bytes is one of the things that make the transport unavailable
        // (docs/settings.md, "Shared-memory segment size").
        Map<String, String> env = Map.of("UCX_MM_SEG_SIZE", "131072");
        AppJvm.Run plain = AppJvm.run(AppJvm.newestNetty(), null, env, PlainNettyApp.class, "echo", "http");
        AppJvm.Run agent = AppJvm.run(AppJvm.newestNetty(), "", env, PlainNettyApp.class, "echo", "http");
        assertEquals(0, agent.exit, agent.output);
        assertEquals(plain.results(), agent.results(), agent.output);
        assertEquals(1, agent.count("netty-ucx agent"), agent.output);
        assertEquals(1, agent.count(WARN + "UCX cannot run here: "), agent.output);
        assertTrue(agent.output.contains("UCX_MM_SEG_SIZE"), agent.output);
    }

    @Test
    void wrongArgumentsLeaveTheApplicationAloneWithOneWarning() throws Exception {
        AppJvm.Run agent = AppJvm.run(AppJvm.newestNetty(), "transports=nio,tcp", Map.of(), PlainNettyApp.class,
                "echo");
        assertEquals(0, agent.exit, agent.output);
        assertEquals(1, agent.count("netty-ucx agent"), agent.output);
        assertEquals(1, agent.count(WARN + "its arguments are wrong: unknown transport 'tcp'"), agent.output);
        assertTrue(agent.results().contains("echo: 65536 bytes, crc 3361028685"), agent.output);
    }

    @Test
    void excludedPackagesAndTransportsKeepTheirGroups() throws Exception {
        AppJvm.Run excluded = AppJvm.run(AppJvm.newestNetty(), "excludePackages=io.github.nettyucx.agent.app",
                Map.of(), PlainNettyApp.class, "echo");
        assertEquals(0, excluded.exit, excluded.output);
        assertTrue(excluded.results().contains("echo: 65536 bytes, crc 3361028685"), excluded.output);
        assertEquals(0, excluded.reported("agent.groups.nio"), excluded.output);
        assertEquals(0, excluded.reported("ucx.connections.UCX"), excluded.output);

        AppJvm.Run otherThread = AppJvm.run(AppJvm.newestNetty(), "excludeThreads=mai", Map.of(),
                PlainNettyApp.class, "echo");
        assertEquals(0, otherThread.reported("agent.groups.nio"), otherThread.output);

        AppJvm.Run epollOnly = AppJvm.run(AppJvm.newestNetty(), "transports=epoll", Map.of(), PlainNettyApp.class,
                "echo");
        assertEquals(0, epollOnly.exit, epollOnly.output);
        assertEquals(0, epollOnly.reported("agent.groups.nio"), epollOnly.output);
        assertEquals(0, epollOnly.reported("agent.channels.socket"), epollOnly.output);
        assertTrue(epollOnly.results().contains("echo: 65536 bytes, crc 3361028685"), epollOnly.output);
    }
}
