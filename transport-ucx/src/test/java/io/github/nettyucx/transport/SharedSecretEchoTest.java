/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.UcxKeys;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.transport.testsuite.RequireUcx;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two real channels that trust each other by a shared secret, end to end: both proofs, both address MACs made and
 * checked, UCX endpoints, and an echo over them; with different secrets, the TCP data path and no endpoint. A key
 * rotation (a server with the old and the new key, clients with either) and binary key files (bytes that are not
 * UTF-8) over real sockets too. {@link UcxConnectorTest} checks the same handshake without sockets, with bytes
 * altered on the way.
 */
@RequireUcx
class SharedSecretEchoTest {
    private static final int ECHO_BYTES = 1 << 20;
    private static final byte[] SECRET = HexFormat.of().parseHex(
            "d452e59ae6d725830587bdf921349798207b30e1c1bbe3065b6380ca314b6aac");
    private static final byte[] OTHER_SECRET = HexFormat.of().parseHex(
            "096915f84e8697938cdfc3e8353e02a8934462a8d72c9853263ee61c8e88c1eb");
    private static EventLoopGroup group;

    @BeforeAll
    static void start() {
        TestTransport.requireUcx();
        assumeTrue(!"always".equals(System.getProperty("io.github.nettyucx.tcpDataPath")),
                "every connection takes the TCP data path in this execution");
        group = new UcxEventLoopGroup(2);
    }

    @AfterAll
    static void stop() {
        if (group != null) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void theSameSecretOnBothSidesConnectsOverUcx() throws Exception {
        long endpoints = Ucx.endpointsCreated();
        long ucx = UcxTransportMetrics.connectionsOpened(DataPath.UCX);
        long sent = UcxTransportMetrics.ucxBytesSent();
        long received = UcxTransportMetrics.ucxBytesReceived();
        echo(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        assertEquals(2, Ucx.endpointsCreated() - endpoints, "an endpoint on each side");
        assertEquals(2, UcxTransportMetrics.connectionsOpened(DataPath.UCX) - ucx,
                "both ends opened over UCX");
        // The client's MiB out and back: each byte sent twice and received twice in this process.
        assertEquals(2 * ECHO_BYTES, UcxTransportMetrics.ucxBytesSent() - sent, "bytes sent over UCX");
        assertEquals(2 * ECHO_BYTES, UcxTransportMetrics.ucxBytesReceived() - received, "bytes received over UCX");
    }

    @Test
    void differentSecretsConnectOverTheTcpDataPathWithoutAnEndpoint() throws Exception {
        long endpoints = Ucx.endpointsCreated();
        long tcp = UcxTransportMetrics.connectionsOpened(DataPath.TCP_DATA_PATH);
        long sent = UcxTransportMetrics.ucxBytesSent();
        echo(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(OTHER_SECRET));
        assertEquals(0, Ucx.endpointsCreated() - endpoints, "no UCX endpoint between peers that do not trust");
        assertEquals(2, UcxTransportMetrics.connectionsOpened(DataPath.TCP_DATA_PATH) - tcp);
        assertEquals(0, UcxTransportMetrics.ucxBytesSent() - sent, "nothing over UCX on the TCP data path");
    }

    /**
     * A rotation: the server holds {old, new} (two secret-file rules, as on a command line), a client either key.
     * Both clients get UCX, both ways (an endpoint on each side, both ends over UCX); a client with an unrelated key
     * gets the TCP data path.
     */
    @Test
    void duringARotationClientsOfEitherKeyGetUcx(@TempDir Path dir) throws Exception {
        Path oldKey = dir.resolve("old.key");
        Path newKey = dir.resolve("new.key");
        Path unrelatedKey = dir.resolve("unrelated.key");
        UcxKeys.writeNewKeyFile(oldKey);
        UcxKeys.writeNewKeyFile(newKey);
        UcxKeys.writeNewKeyFile(unrelatedKey);
        UcxTrust server = UcxTrust.parse("secret-file:" + oldKey + ",secret-file:" + newKey);
        for (Path clientKey : new Path[] {oldKey, newKey}) {
            long endpoints = Ucx.endpointsCreated();
            long ucx = UcxTransportMetrics.connectionsOpened(DataPath.UCX);
            echo(UcxTrust.sharedSecretFile(clientKey), server);
            assertEquals(2, Ucx.endpointsCreated() - endpoints, clientKey + ": an endpoint on each side");
            assertEquals(2, UcxTransportMetrics.connectionsOpened(DataPath.UCX) - ucx,
                    clientKey + ": both ends over UCX");
        }
        // A client that rotated first ({new, old}) and a server that has not ({old}): old is used.
        long endpoints = Ucx.endpointsCreated();
        echo(UcxTrust.parse("secret-file:" + newKey + ",secret-file:" + oldKey), UcxTrust.sharedSecretFile(oldKey));
        assertEquals(2, Ucx.endpointsCreated() - endpoints, "a client ahead of the server");

        endpoints = Ucx.endpointsCreated();
        long tcp = UcxTransportMetrics.connectionsOpened(DataPath.TCP_DATA_PATH);
        echo(UcxTrust.sharedSecretFile(unrelatedKey), server);
        assertEquals(0, Ucx.endpointsCreated() - endpoints, "no endpoint for a client with an unrelated key");
        assertEquals(2, UcxTransportMetrics.connectionsOpened(DataPath.TCP_DATA_PATH) - tcp);
    }

    /**
     * The attack on binary key files: an attacker whose raw key file differs from the server's only in bytes that
     * are not UTF-8. Read as UTF-8 text (before), each such byte became U+FFFD and the two files were one key; read
     * as bytes, the attacker gets the TCP data path, and the holder of the real file UCX.
     */
    @Test
    void aBinaryKeyFileKeepsTheBytesThatAreNotUtf8(@TempDir Path dir) throws Exception {
        byte[] key = UcxKeys.generate();
        for (int i = 0; i < key.length; i += 2) {
            key[i] = (byte) (0x80 | key[i]); // lone bytes 0x80..0xFF: never valid UTF-8 after an ASCII byte
            key[i + 1] = (byte) (key[i + 1] & 0x7F);
        }
        byte[] forged = key.clone();
        for (int i = 0; i < forged.length; i += 2) {
            forged[i] ^= 0x01; // another byte that is not UTF-8 either
        }
        assertEquals(new String(key, StandardCharsets.UTF_8), new String(forged, StandardCharsets.UTF_8),
                "the two files must be one key as UTF-8 text, or the test proves nothing");
        Path real = binaryKeyFile(dir.resolve("real.key"), key);
        Path attacker = binaryKeyFile(dir.resolve("attacker.key"), forged);
        UcxTrust server = UcxTrust.sharedSecretFile(real);

        long endpoints = Ucx.endpointsCreated();
        long tcp = UcxTransportMetrics.connectionsOpened(DataPath.TCP_DATA_PATH);
        echo(UcxTrust.sharedSecretFile(attacker), server);
        assertEquals(0, Ucx.endpointsCreated() - endpoints, "an endpoint for the attacker's key file");
        assertEquals(2, UcxTransportMetrics.connectionsOpened(DataPath.TCP_DATA_PATH) - tcp);

        endpoints = Ucx.endpointsCreated();
        echo(UcxTrust.sharedSecretFile(real), server);
        assertEquals(2, Ucx.endpointsCreated() - endpoints, "the real key file: UCX (the control)");
    }

    private static Path binaryKeyFile(Path file, byte[] key) throws IOException {
        Files.write(file, key);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    /** 1 MiB from a client trusting by {@code clientTrust} to a server trusting by {@code serverTrust}, and back. */
    private static void echo(UcxTrust clientTrust, UcxTrust serverTrust) throws Exception {
        EchoChecker.echoThrough(new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                        .childOption(UcxChannelOption.TRUST, serverTrust),
                new Bootstrap().group(group).channel(UcxSocketChannel.class)
                        .option(UcxChannelOption.TRUST, clientTrust), ECHO_BYTES);
    }
}
