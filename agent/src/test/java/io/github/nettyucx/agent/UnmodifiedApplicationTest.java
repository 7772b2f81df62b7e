/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import io.github.nettyucx.agent.app.EveryWayApp;
import io.github.nettyucx.agent.app.PlainNettyApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Applications written against plain Netty, run as users run them: without the agent, then with
 * {@code -javaagent}. Their results must be the same, and the transport's own counters (the agent's report) must show
 * that their connections went over UCX.
 */
class UnmodifiedApplicationTest {
    static Stream<String> releases() {
        return Stream.of(AppJvm.oldestNetty(), AppJvm.newestNetty());
    }

    @ParameterizedTest(name = "Netty {0}")
    @MethodSource("releases")
    void echoHttpAndFileServerRunOverUcx(String release) throws Exception {
        AppJvm.Run plain = AppJvm.run(release, null, Map.of(), PlainNettyApp.class, "echo", "http", "file");
        AppJvm.Run agent = AppJvm.run(release, "", Map.of(), PlainNettyApp.class, "echo", "http", "file");
        assertEquals(0, plain.exit, plain.output);
        assertEquals(0, agent.exit, agent.output);
        assertEquals(4, plain.results().size(), plain.output);
        assertEquals(plain.results(), agent.results(), agent.output);

        assertEquals(1, agent.count("netty-ucx agent: moving Netty's nio, epoll, io_uring event loop groups"),
                agent.output);
        assertEquals(1, agent.count("transport from the agent's jar"), agent.output);
        assertEquals(0, agent.count("WARNING"), agent.output);
        // Its two NioEventLoopGroups, three servers and three clients (echo, HTTP, file); each connection counts at
        // both of its ends, which are in this one process.
        assertEquals(2, agent.reported("agent.groups.nio"), agent.output);
        assertEquals(3, agent.reported("agent.channels.socket"), agent.output);
        assertEquals(3, agent.reported("agent.channels.serverSocket"), agent.output);
        assertEquals(6, agent.reported("ucx.connections.UCX"), agent.output);
        assertEquals(0, agent.reported("ucx.connections.PLAIN_TCP"), agent.output);
    }

    @Test
    void everyWayOfMakingGroupsAndChannelsMoves() throws Exception {
        String release = AppJvm.newestNetty();
        AppJvm.Run plain = AppJvm.run(release, null, Map.of(), EveryWayApp.class);
        AppJvm.Run agent = AppJvm.run(release, "", Map.of(), EveryWayApp.class);
        assertEquals(0, plain.exit, plain.output);
        assertEquals(0, agent.exit, agent.output);
        List<String> results = plain.results();
        assertEquals(results, agent.results(), agent.output);

        boolean epoll = results.stream().anyMatch(l -> l.startsWith("EpollEventLoopGroup: ping"));
        boolean ioUring = results.stream().anyMatch(l -> l.startsWith("MultiThreadIoEventLoopGroup(IoUringIoHandler)"));
        assertTrue(results.contains("LocalIoHandler: ping over local"), plain.output);
        assertTrue(results.contains("NioDatagramChannel: datagram"), plain.output);
        int tcpWays = 2 + (epoll ? 2 : 0) + (ioUring ? 1 : 0);
        assertEquals(tcpWays + 2, results.size() - 1, plain.output);

        // NioEventLoopGroup, MultiThreadIoEventLoopGroup(NioIoHandler) and the UDP group; the local group stays.
        assertEquals(3, agent.reported("agent.groups.nio"), agent.output);
        assertEquals(epoll ? 2 : 0, agent.reported("agent.groups.epoll"), agent.output);
        assertEquals(ioUring ? 1 : 0, agent.reported("agent.groups.io_uring"), agent.output);
        assertEquals(tcpWays, agent.reported("agent.channels.socket"), agent.output);
        assertEquals(tcpWays, agent.reported("agent.channels.serverSocket"), agent.output);
        assertEquals(2, agent.reported("agent.channels.datagram"), agent.output);
        assertEquals(0, agent.reported("agent.channels.left"), agent.output);
        assertEquals(2L * tcpWays, agent.reported("ucx.connections.UCX"), agent.output);
    }
}
