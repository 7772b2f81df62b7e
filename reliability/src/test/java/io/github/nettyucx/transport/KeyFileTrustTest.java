/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxKeys;
import io.github.nettyucx.handshake.UcxTrust;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Key files between processes: the server is a child JVM that reads its key file(s) from
 * {@code -Dio.github.nettyucx.trust}, the clients are this JVM. A binary key file keeps the bytes that are not
 * UTF-8, so an attacker whose file differs from the server's only there (the same key when files were read as UTF-8
 * text) is not trusted; and a server in the middle of a rotation (two secret-file rules) trusts clients of either
 * key over UCX, not a client of an unrelated key.
 */
class KeyFileTrustTest {
    private EventLoopGroup group;
    private ProbedEchoServer server;

    @BeforeAll
    static void requireUcx() {
        TestTransport.UCX.assumeAvailable();
    }

    @AfterEach
    void stop() throws Exception {
        ProbedEchoServer.stop(server, group);
    }

    @Test
    void anAttackersBinaryKeyFileThatMatchesOnlyAsUtf8TextIsNotTrusted(@TempDir Path dir) throws Exception {
        byte[] key = UcxKeys.generate();
        for (int i = 0; i < key.length; i += 2) {
            key[i] = (byte) (0x80 | key[i]); // a byte 0x80..0xFF before an ASCII one: never valid UTF-8
            key[i + 1] = (byte) (key[i + 1] & 0x7F);
        }
        byte[] forged = key.clone();
        for (int i = 0; i < forged.length; i += 2) {
            forged[i] ^= 0x01;
        }
        assertEquals(new String(key, StandardCharsets.UTF_8), new String(forged, StandardCharsets.UTF_8),
                "the two files must be one key as UTF-8 text, or the test proves nothing");
        Path real = keyFile(dir.resolve("real.key"), key);
        Path attacker = keyFile(dir.resolve("attacker.key"), forged);

        group = TestTransport.UCX.newGroup(1);
        server = new ProbedEchoServer(group, "-Dio.github.nettyucx.trust=secret-file:" + real);
        long serverEndpoints = server.endpoints();
        // The attacker trusts any server, so that the server's verdict alone decides.
        assertEquals(0, server.echoWithNewClient(group, UcxTrust.sharedSecretFile(attacker)
                .or(UcxTrust.anyPeer())), "endpoints this JVM created for the attacker's key file");
        assertEquals(serverEndpoints, server.endpoints(), "the server created an endpoint for the attacker");
        server.assertStillServing();

        assertEquals(1, server.echoWithNewClient(group, UcxTrust.sharedSecretFile(real)),
                "the real key file: UCX (the control)");
        assertEquals(serverEndpoints + 1, server.endpoints(), "the server's endpoint for the real key file");
    }

    @Test
    void aServerInTheMiddleOfARotationTrustsClientsOfEitherKey(@TempDir Path dir) throws Exception {
        Path oldKey = dir.resolve("old.key");
        Path newKey = dir.resolve("new.key");
        Path unrelated = dir.resolve("unrelated.key");
        UcxKeys.writeNewKeyFile(oldKey);
        UcxKeys.writeNewKeyFile(newKey);
        UcxKeys.writeNewKeyFile(unrelated);

        group = TestTransport.UCX.newGroup(1);
        server = new ProbedEchoServer(group, "-Dio.github.nettyucx.trust=secret-file:" + oldKey + ",secret-file:"
                + newKey);
        long serverEndpoints = server.endpoints();
        assertEquals(1, server.echoWithNewClient(group, UcxTrust.sharedSecretFile(oldKey)), "a client of the old key");
        assertEquals(1, server.echoWithNewClient(group, UcxTrust.sharedSecretFile(newKey)), "a client of the new key");
        assertEquals(serverEndpoints + 2, server.endpoints(), "the server's endpoints for the two clients");
        assertEquals(0, server.echoWithNewClient(group, UcxTrust.sharedSecretFile(unrelated)
                .or(UcxTrust.anyPeer())), "a client of an unrelated key");
        assertEquals(serverEndpoints + 2, server.endpoints(), "the server created an endpoint for an unrelated key");
        server.assertStillServing();
    }

    private static Path keyFile(Path file, byte[] key) throws IOException {
        Files.write(file, key);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
