/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;


/**
 * Tests of hostile peers against one {@link ProbedEchoServer} per test class: each test attacks the server and
 * then checks with {@link #assertServerUnharmed} that its healthy connection still works and that nothing of
 * the attacker's connection is left.
 */
abstract class AbstractProbedServerTest {
    static EventLoopGroup group;
    static ProbedEchoServer server;

    @BeforeAll
    static void startServer() throws Exception {
        TestTransport.UCX.assumeAvailable();
        group = TestTransport.UCX.newGroup(1);
        server = new ProbedEchoServer(group);
    }

    @AfterAll
    static void stopServer() throws Exception {
        ProbedEchoServer.stop(server, group);
    }

    static void assertServerUnharmed(String after) throws Exception {
        server.assertStillServing();
        server.assertOnlyHealthyConnectionLeft("after " + after);
    }
}
