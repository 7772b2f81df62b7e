/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Only the application's port is open (docs/security.md#ucxs-own-ports-and-segments): a UCX server bound to every
 * interface, and its client, each a process of its own with a UCX connection up and moving data, listen on no TCP
 * socket but the server's own. The sockets are read from /proc as an outsider would. Without the transport's
 * default (UCX_TLS exported with tcp), UCX's tcp transport listens on ports of its own, which shows that the check
 * sees them, and the process warns.
 */
class ListeningPortsTest {
    private static final String EXPOSED = "opens UCX's tcp transport";

    @Test
    @Timeout(120)
    void aUcxServerAndClientListenOnNothingButTheApplicationsPort() throws Exception {
        try (ChildJvm server = ChildJvm.start(ReliabilityPeer.class, "echo-server", "0.0.0.0")) {
            int port = Integer.parseInt(server.awaitValue(ReliabilityPeer.PORT));
            try (ChildJvm client = ChildJvm.start(ReliabilityPeer.class, "echo-client", "127.0.0.1",
                    Integer.toString(port))) {
                client.awaitLine(ReliabilityPeer.ECHOED);
                List<String> serverListens = ProcessSockets.listening(server.pid());
                List<String> clientListens = ProcessSockets.listening(client.pid());
                System.out.println("server listens on " + serverListens + ", client on " + clientListens);
                assertEquals(1, serverListens.size(), "the server listens on more than its port " + port + ": "
                        + serverListens);
                assertEquals(port, ProcessSockets.port(serverListens.get(0)));
                assertTrue(clientListens.isEmpty(), "the client listens: " + clientListens);
                assertTrue(!server.output().contains(EXPOSED) && !client.output().contains(EXPOSED),
                        "a warning about UCX's tcp transport with the defaults:\n" + server.output());
                assertTrue(!server.output().contains("unused env") && !client.output().contains("unused env"),
                        "UCX warns about settings of transports the defaults leave out:\n" + server.output());
                server.send("ENDPOINTS");
                assertTrue(Long.parseLong(server.awaitValue("ENDPOINTS ")) > 0,
                        "the connection did not use UCX: the check proves nothing");
            }
        }
    }

    @Test
    @Timeout(120)
    void ucxsTcpTransportChosenByTheUserListensAndIsWarnedAbout() throws Exception {
        try (ChildJvm server = ChildJvm.builder(ReliabilityPeer.class).env("UCX_TLS", "^sysv")
                .args("echo-server", "0.0.0.0").start()) {
            int port = Integer.parseInt(server.awaitValue(ReliabilityPeer.PORT));
            try (ChildJvm client = ChildJvm.start(ReliabilityPeer.class, "echo-client", "127.0.0.1",
                    Integer.toString(port))) {
                client.awaitLine(ReliabilityPeer.ECHOED);
                List<String> serverListens = ProcessSockets.listening(server.pid());
                System.out.println("with UCX_TLS=^sysv the server listens on " + serverListens);
                assertTrue(serverListens.size() > 1, "UCX's tcp transport opened no port: " + serverListens);
                assertTrue(server.awaitOutput(EXPOSED, 10), "no warning:\n" + server.output());
            }
        }
    }
}
