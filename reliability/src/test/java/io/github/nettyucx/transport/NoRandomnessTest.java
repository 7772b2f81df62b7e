/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fail closed without randomness (docs/security.md): a client whose getrandom fails (it runs under a seccomp
 * filter that answers ENOSYS, {@code src/test/c/no_getrandom.c}) opens no UCX connection, since its connection id,
 * tag secret and message key would be predictable; its connect fails with an error that names the cause. The
 * server is not harmed.
 */
class NoRandomnessTest {
    @Test
    @Timeout(120)
    void aPeerWithoutRandomnessOpensNoConnection() throws Exception {
        Path launcher = Paths.get("target", "no_getrandom").toAbsolutePath();
        Process cc = new ProcessBuilder("cc", "-o", launcher.toString(),
                Paths.get("src", "test", "c", "no_getrandom.c").toString()).inheritIO().start();
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, "cc could not build no_getrandom");
        assertTrue(Files.isExecutable(launcher));
        try (ChildJvm server = ChildJvm.start(ReliabilityPeer.class, "echo-server", "127.0.0.1")) {
            String port = server.awaitValue(ReliabilityPeer.PORT);
            try (ChildJvm client = ChildJvm.builder(ReliabilityPeer.class).prefix(launcher.toString())
                    .args("echo-client", "127.0.0.1", port).name("client-without-randomness").start()) {
                int exit = client.awaitExit(60);
                String output = client.output();
                System.out.println("client without randomness:\n" + output);
                assertNotEquals(0, exit, "the client connected:\n" + output);
                assertTrue(output.contains("getrandom") && output.contains("predictable"),
                        "the connect failed for another reason than the missing randomness:\n" + output);
            }
            server.send("CONNECTIONS");
            assertEquals("0", server.awaitValue(ReliabilityPeer.CONNECTIONS),
                    "the server holds a native connection for the client that failed");
            try (ChildJvm client = ChildJvm.start(ReliabilityPeer.class, "echo-client", "127.0.0.1", port)) {
                client.awaitLine(ReliabilityPeer.ECHOED);
            }
        }
    }
}
