/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ProtocolException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.IntSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link UcxTrustExchange}, both sides of it in one process, no sockets: the proofs of a shared secret (trusted both
 * ways with the same secret; not with another, nor when replayed from another exchange, nor reflected back to the
 * side that made them), the choice of key during a rotation, and the other rules (any peer, networks, same user by
 * the peer socket owner's uid).
 */
class UcxTrustExchangeTest {
    private static final byte[] SECRET = HexFormat.of().parseHex(
            "dd78af0a675d2e0706c447a3a5d3ede689c00c4ad482a1a8dcd66893ba8ab315");
    private static final byte[] OTHER_SECRET = HexFormat.of().parseHex(
            "a9fe275597f91f566f01abb862c9019907b24f59e5f7c0e073142170a2085012");
    /** A peer in no network of these tests (TEST-NET-1). */
    private static final InetSocketAddress STRANGER = new InetSocketAddress(address(192, 0, 2, 7), 40000);
    /** The kernel's answer for a peer socket that is not of this host and network namespace. */
    private static final IntSupplier NOT_LOCAL = () -> -1;

    private static int ownUid;

    @BeforeAll
    static void ownUid(@TempDir Path dir) throws Exception {
        // A new file belongs to the process's effective uid, which owns its sockets too.
        ownUid = (Integer) Files.getAttribute(Files.createFile(dir.resolve("mine")), "unix:uid");
    }

    private static InetAddress address(int... bytes) {
        byte[] raw = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            raw[i] = (byte) bytes[i];
        }
        try {
            return InetAddress.getByAddress(raw);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * A client's and a server's exchange after their intros crossed and the client checked the server's, as the
     * connector does before its hello: {client, server}.
     */
    private static UcxTrustExchange[] introduce(UcxTrust clientTrust, UcxTrust serverTrust) {
        UcxTrustExchange client = new UcxTrustExchange(clientTrust, false);
        UcxTrustExchange server = new UcxTrustExchange(serverTrust, true);
        server.peerNonce(client.ownNonce());
        server.peerKeyIds(client.ownKeyIds());
        client.peerNonce(server.ownNonce());
        client.trusts(STRANGER, server.proof(), NOT_LOCAL);
        return new UcxTrustExchange[] {client, server};
    }

    /** A proof as docs/protocol.md has it: the key's id, then the HMAC. */
    private static byte[] proof(byte[] secret, String label, byte[] clientNonce, byte[] serverNonce)
            throws Exception {
        byte[] proof = Arrays.copyOf(UcxKeys.keyId(secret), UcxHandshake.PROOF_BYTES);
        System.arraycopy(hmac(secret, label, clientNonce, serverNonce), 0, proof, UcxKeys.KEY_ID_BYTES,
                UcxHandshake.MAC_BYTES);
        return proof;
    }

    private static byte[] hmac(byte[] secret, String label, byte[] clientNonce, byte[] serverNonce) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        mac.update(label.getBytes(StandardCharsets.US_ASCII));
        mac.update(clientNonce);
        mac.update(serverNonce);
        return mac.doFinal();
    }

    /** A hello as a peer would receive it, with {@code address} after it. */
    private static UcxHandshake.Hello hello(byte[] body, byte[] address, byte[] mac) {
        return hello(body, address, mac, false);
    }

    private static UcxHandshake.Hello hello(byte[] body, byte[] address, byte[] mac, boolean sameHost) {
        return new UcxHandshake.Hello(0, 1, 0, 0, 8, 65536, new byte[16], sameHost, new byte[32], null, body,
                new UcxHandshake.WorkerAddress(address, mac, new byte[32]));
    }

    // ---- addresses ----

    @Test
    void anAddressFromAPeerThatProvedTheSecretMustComeAsItWasSent() throws Exception {
        UcxTrustExchange[] pair = introduce(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        UcxTrustExchange client = pair[0];
        UcxTrustExchange server = pair[1];
        assertTrue(client.trusts(STRANGER, server.proof(), NOT_LOCAL));
        assertTrue(server.trusts(STRANGER, client.proof(), NOT_LOCAL));
        byte[] body = new byte[UcxHandshake.HELLO_BYTES];
        body[7] = 42;
        byte[] address = "the server's worker address".getBytes(StandardCharsets.US_ASCII);
        byte[] mac = server.addressMac(body, address);
        client.checkAddress(hello(body, address, mac));

        byte[] otherAddress = address.clone();
        otherAddress[0] ^= 1;
        assertThrows(ProtocolException.class, () -> client.checkAddress(hello(body, otherAddress, mac)),
                "an address replaced on the way");
        byte[] otherBody = body.clone();
        otherBody[7] = 43;
        assertThrows(ProtocolException.class, () -> client.checkAddress(hello(otherBody, address, mac)),
                "a hello changed on the way");
        assertThrows(ProtocolException.class,
                () -> client.checkAddress(hello(body, address, new byte[UcxHandshake.ADDRESS_MAC_BYTES])),
                "no MAC from a peer that proved the secret");
        assertThrows(ProtocolException.class, () -> server.checkAddress(hello(body, address, mac)),
                "a MAC reflected back to the side that made it");
    }

    /**
     * Host proofs: each side's proves it runs on this host to the other; the same-user rule holds for a server only
     * once its hello proved that (a forwarder of this user relays strangers who cannot).
     */
    @Test
    void sameUserNeedsTheHostProof() throws Exception {
        UcxTrustExchange client = new UcxTrustExchange(UcxTrust.sameUser(), false);
        UcxTrustExchange server = new UcxTrustExchange(UcxTrust.sameUser(), true);
        server.peerNonce(client.ownNonce());
        client.peerNonce(server.ownNonce());
        assertArrayEquals(server.hostProof(), client.expectedPeerHostProof());
        assertArrayEquals(client.hostProof(), server.expectedPeerHostProof());
        assertFalse(Arrays.equals(client.hostProof(), server.hostProof()), "a proof reflected back would pass");
        int ownUid = Integer.parseInt(Files.readAllLines(Paths.get("/proc/self/status")).stream()
                .filter(line -> line.startsWith("Uid:")).findFirst().orElseThrow().split("\\s+")[2]);
        assertTrue(client.trusts(STRANGER, null, () -> ownUid), "the socket's owner is this user");
        client.checkSameUserOnSameHost(hello(new byte[0], new byte[1], new byte[32], true));
        assertThrows(ProtocolException.class,
                () -> client.checkSameUserOnSameHost(hello(new byte[0], new byte[1], new byte[32], false)));
    }

    @Test
    void aPeerTrustedByAnotherRuleSendsNoMacAndNeedsNone() {
        UcxTrustExchange[] pair = introduce(UcxTrust.anyPeer(), UcxTrust.none());
        assertArrayEquals(new byte[UcxHandshake.ADDRESS_MAC_BYTES],
                pair[1].addressMac(new byte[UcxHandshake.HELLO_BYTES], new byte[] {1}), "no secret, no MAC");
        assertTrue(pair[0].trusts(STRANGER, pair[1].proof(), NOT_LOCAL));
        assertDoesNotThrow(() -> pair[0].checkAddress(hello(new byte[UcxHandshake.HELLO_BYTES], new byte[] {1},
                new byte[UcxHandshake.ADDRESS_MAC_BYTES])));
    }

    // ---- proofs ----

    @Test
    void bothSidesWithTheSameSecretTrustEachOther() {
        UcxTrustExchange[] pair = introduce(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        UcxTrustExchange client = pair[0];
        UcxTrustExchange server = pair[1];
        assertTrue(client.trusts(STRANGER, server.proof(), NOT_LOCAL), "the client trusts the server's proof");
        assertTrue(server.trusts(STRANGER, client.proof(), NOT_LOCAL), "the server trusts the client's proof");
    }

    /** The proofs are those of docs/protocol.md, which another implementation would compute. */
    @Test
    void theProofsAreTheDocumentedHmacs() throws Exception {
        UcxTrustExchange[] pair = introduce(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        byte[] clientNonce = pair[0].ownNonce();
        byte[] serverNonce = pair[1].ownNonce();
        assertEquals(UcxHandshake.NONCE_BYTES, clientNonce.length);
        assertEquals(UcxHandshake.NONCE_BYTES, serverNonce.length);
        assertFalse(Arrays.equals(clientNonce, serverNonce));
        assertArrayEquals(proof(SECRET, "netty-ucx 8 server", clientNonce, serverNonce), pair[1].proof());
        assertArrayEquals(proof(SECRET, "netty-ucx 8 client", clientNonce, serverNonce), pair[0].proof());
        // The key id: the first 8 bytes of HMAC-SHA256(key, "netty-ucx key id").
        assertArrayEquals(Arrays.copyOf(hmac(SECRET, "netty-ucx key id", new byte[0], new byte[0]), 8),
                UcxKeys.keyId(SECRET));
        assertFalse(Arrays.equals(pair[0].proof(), pair[1].proof()), "the two roles' proofs differ");
    }

    @Test
    void eachExchangeHasAFreshNonce() {
        UcxTrustExchange first = new UcxTrustExchange(UcxTrust.none(), false);
        UcxTrustExchange second = new UcxTrustExchange(UcxTrust.none(), false);
        assertFalse(Arrays.equals(first.ownNonce(), second.ownNonce()));
        assertFalse(Arrays.equals(new byte[UcxHandshake.NONCE_BYTES], first.ownNonce()), "an all-zero nonce");
    }

    @Test
    void aWrongSecretIsTrustedByNeitherSide() {
        UcxTrustExchange[] pair = introduce(UcxTrust.sharedSecret(OTHER_SECRET), UcxTrust.sharedSecret(SECRET));
        assertFalse(pair[0].trusts(STRANGER, pair[1].proof(), NOT_LOCAL));
        assertFalse(pair[1].trusts(STRANGER, pair[0].proof(), NOT_LOCAL));
    }

    @Test
    void withoutASecretTheProofIsZerosAndProvesNothing() {
        UcxTrustExchange[] pair = introduce(UcxTrust.none(), UcxTrust.sharedSecret(SECRET));
        assertArrayEquals(new byte[UcxHandshake.PROOF_BYTES], pair[0].proof());
        assertFalse(pair[1].trusts(STRANGER, pair[0].proof(), NOT_LOCAL), "a zero proof");
        assertFalse(pair[0].trusts(STRANGER, pair[1].proof(), NOT_LOCAL),
                "a side without a secret (nor any rule) trusts no proof");
        assertFalse(pair[1].trusts(STRANGER, null, NOT_LOCAL), "no proof");
        assertFalse(pair[1].trusts(STRANGER, new byte[0], NOT_LOCAL), "an empty proof");
    }

    @Test
    void aProofCutShortOrLengthenedIsNotTrusted() {
        UcxTrustExchange[] pair = introduce(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        byte[] proof = pair[0].proof();
        assertFalse(pair[1].trusts(STRANGER, Arrays.copyOf(proof, proof.length - 1), NOT_LOCAL));
        assertFalse(pair[1].trusts(STRANGER, Arrays.copyOf(proof, proof.length + 1), NOT_LOCAL));
        byte[] flipped = proof.clone();
        flipped[proof.length - 1] ^= 1;
        assertFalse(pair[1].trusts(STRANGER, flipped, NOT_LOCAL));
    }

    /** A proof seen on one connection is worth nothing on another: its nonces are not this exchange's. */
    @Test
    void aProofReplayedFromAnotherExchangeIsNotTrusted() {
        UcxTrustExchange[] seen = introduce(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        UcxTrustExchange[] now = introduce(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        assertFalse(now[1].trusts(STRANGER, seen[0].proof(), NOT_LOCAL), "a client's proof from elsewhere");
        assertFalse(now[0].trusts(STRANGER, seen[1].proof(), NOT_LOCAL), "a server's proof from elsewhere");

        // Even with the recorded client's intro replayed too: the server's own nonce is new.
        UcxTrustExchange server = new UcxTrustExchange(UcxTrust.sharedSecret(SECRET), true);
        server.peerNonce(seen[0].ownNonce());
        server.peerKeyIds(seen[0].ownKeyIds());
        assertFalse(server.trusts(STRANGER, seen[0].proof(), NOT_LOCAL), "a replayed intro and hello");
    }

    /** A side's own proof sent back to it (its role's label differs from its peer's) proves nothing. */
    @Test
    void aReflectedProofIsNotTrusted() {
        UcxTrustExchange[] pair = introduce(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        assertFalse(pair[1].trusts(STRANGER, pair[1].proof(), NOT_LOCAL), "the server's proof as the client's");
        assertFalse(pair[0].trusts(STRANGER, pair[0].proof(), NOT_LOCAL), "the client's proof as the server's");

        // A server whose own intro came back as the client's (same nonces both ways), and its proof with it.
        UcxTrustExchange server = new UcxTrustExchange(UcxTrust.sharedSecret(SECRET), true);
        server.peerNonce(server.ownNonce());
        server.peerKeyIds(server.ownKeyIds());
        assertFalse(server.trusts(STRANGER, server.proof(), NOT_LOCAL), "an echoed intro and proof");
    }

    @Test
    void noProofBeforeThePeersChallenge() {
        UcxTrustExchange exchange = new UcxTrustExchange(UcxTrust.sharedSecret(SECRET), true);
        exchange.peerKeyIds(exchange.ownKeyIds());
        assertThrows(IllegalStateException.class, exchange::proof);
        assertArrayEquals(new byte[UcxHandshake.PROOF_BYTES], new UcxTrustExchange(UcxTrust.none(), false).proof());
    }

    @Test
    void theProofDependsOnThePeersChallenge() {
        UcxTrustExchange exchange = new UcxTrustExchange(UcxTrust.sharedSecret(SECRET), true);
        exchange.peerKeyIds(exchange.ownKeyIds());
        exchange.peerNonce(new byte[UcxHandshake.NONCE_BYTES]);
        byte[] first = exchange.proof();
        byte[] otherNonce = new byte[UcxHandshake.NONCE_BYTES];
        otherNonce[0] = 1;
        exchange.peerNonce(otherNonce);
        assertFalse(Arrays.equals(first, exchange.proof()));
    }

    @Test
    void theChallengeIsCopied() {
        byte[] nonce = new byte[UcxHandshake.NONCE_BYTES];
        UcxTrustExchange server = new UcxTrustExchange(UcxTrust.sharedSecret(SECRET), true);
        server.peerKeyIds(server.ownKeyIds());
        server.peerNonce(nonce);
        byte[] proof = server.proof();
        nonce[0] = 9;
        assertArrayEquals(proof, server.proof(), "a later change to the caller's array changed the challenge");
    }

    // ---- keys: which one, and rotation ----

    /** The client's intro names its keys: their ids in order, zeros in an unused slot. */
    @Test
    void theClientNamesItsKeysById() {
        byte[] ids = new UcxTrustExchange(UcxTrust.sharedSecrets(SECRET, OTHER_SECRET), false).ownKeyIds();
        assertEquals(UcxHandshake.KEY_IDS_BYTES, ids.length);
        assertArrayEquals(UcxKeys.keyId(SECRET), Arrays.copyOfRange(ids, 0, 8));
        assertArrayEquals(UcxKeys.keyId(OTHER_SECRET), Arrays.copyOfRange(ids, 8, 16));
        byte[] one = new UcxTrustExchange(UcxTrust.sharedSecret(SECRET), false).ownKeyIds();
        assertArrayEquals(UcxKeys.keyId(SECRET), Arrays.copyOfRange(one, 0, 8));
        assertArrayEquals(new byte[8], Arrays.copyOfRange(one, 8, 16));
        assertArrayEquals(new byte[UcxHandshake.KEY_IDS_BYTES],
                new UcxTrustExchange(UcxTrust.sameUser(), false).ownKeyIds());
        assertFalse(Arrays.equals(UcxKeys.keyId(SECRET), UcxKeys.keyId(OTHER_SECRET)));
    }

    /**
     * During a rotation the server holds {old, new}, clients either: each pair proves with the key both hold, and
     * their address MACs use it too. A client with an unrelated key is trusted by neither side.
     */
    @Test
    void aServerWithTwoKeysTrustsClientsOfEither() throws Exception {
        byte[] unrelated = UcxKeys.generate();
        UcxTrust rotating = UcxTrust.sharedSecret(SECRET).or(UcxTrust.sharedSecret(OTHER_SECRET));
        for (byte[] clientKey : new byte[][] {SECRET, OTHER_SECRET}) {
            UcxTrustExchange[] pair = introduce(UcxTrust.sharedSecret(clientKey), rotating);
            UcxTrustExchange client = pair[0];
            UcxTrustExchange server = pair[1];
            assertArrayEquals(proof(clientKey, "netty-ucx 8 server", client.ownNonce(), server.ownNonce()),
                    server.proof(), "the server proves with the key the client named");
            assertTrue(client.trusts(STRANGER, server.proof(), NOT_LOCAL), "the client trusts the server");
            assertTrue(server.trusts(STRANGER, client.proof(), NOT_LOCAL), "the server trusts the client");
            byte[] body = new byte[UcxHandshake.HELLO_BYTES];
            byte[] address = {1, 2, 3};
            client.checkAddress(hello(body, address, server.addressMac(body, address)));
            server.checkAddress(hello(body, address, client.addressMac(body, address)));
        }
        // A client that rotated first ({new, old}) and a server not yet ({old}): they use old.
        UcxTrustExchange[] ahead = introduce(UcxTrust.sharedSecrets(OTHER_SECRET, SECRET),
                UcxTrust.sharedSecret(SECRET));
        assertTrue(ahead[1].trusts(STRANGER, ahead[0].proof(), NOT_LOCAL));
        assertTrue(ahead[0].trusts(STRANGER, ahead[1].proof(), NOT_LOCAL));
        assertArrayEquals(UcxKeys.keyId(SECRET), Arrays.copyOf(ahead[0].proof(), 8));

        UcxTrustExchange[] stranger = introduce(UcxTrust.sharedSecret(unrelated), rotating);
        assertArrayEquals(new byte[UcxHandshake.PROOF_BYTES], stranger[1].proof(),
                "a server proves nothing to a client that named none of its keys");
        assertArrayEquals(new byte[UcxHandshake.PROOF_BYTES], stranger[0].proof());
        assertFalse(stranger[0].trusts(STRANGER, stranger[1].proof(), NOT_LOCAL));
        assertFalse(stranger[1].trusts(STRANGER, stranger[0].proof(), NOT_LOCAL));
    }

    /**
     * A client proves its key only to a server whose proof checked out: a server that merely repeats the key id
     * the client's intro named (anyone can) gets a zero proof, nothing to attack offline.
     */
    @Test
    void aClientProvesNothingToAServerThatDidNotProveItsKey() {
        UcxTrustExchange client = new UcxTrustExchange(UcxTrust.sharedSecret(SECRET), false);
        client.peerNonce(new byte[UcxHandshake.NONCE_BYTES]);
        byte[] forged = Arrays.copyOf(UcxKeys.keyId(SECRET), UcxHandshake.PROOF_BYTES);
        assertFalse(client.trusts(STRANGER, forged, NOT_LOCAL));
        assertArrayEquals(new byte[UcxHandshake.PROOF_BYTES], client.proof());
        assertArrayEquals(new byte[UcxHandshake.ADDRESS_MAC_BYTES], client.addressMac(new byte[4], new byte[4]));
    }

    /** The key id must be the one of the key the HMAC was made with: another id with the right HMAC fails. */
    @Test
    void aProofUnderAnotherKeyIdIsNotTrusted() {
        UcxTrustExchange[] pair = introduce(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecrets(SECRET,
                OTHER_SECRET));
        byte[] proof = pair[0].proof();
        System.arraycopy(UcxKeys.keyId(OTHER_SECRET), 0, proof, 0, UcxKeys.KEY_ID_BYTES);
        assertFalse(pair[1].trusts(STRANGER, proof, NOT_LOCAL));
        assertTrue(pair[1].trusts(STRANGER, pair[0].proof(), NOT_LOCAL), "the control");
    }

    // ---- the other rules ----

    @Test
    void anyPeerIsTrustedWhateverItSends() {
        UcxTrustExchange[] pair = introduce(UcxTrust.none(), UcxTrust.anyPeer());
        assertTrue(pair[1].trusts(STRANGER, null, NOT_LOCAL));
        assertTrue(pair[1].trusts(null, new byte[UcxHandshake.PROOF_BYTES], NOT_LOCAL));
        assertFalse(pair[0].trusts(STRANGER, pair[1].proof(), () -> ownUid), "none() trusts no one");
    }

    @Test
    void aPeerIsTrustedByItsNetworkOnly() throws Exception {
        UcxTrust rules = UcxTrust.networks("10.0.0.0/8", "fd00::/8");
        UcxTrustExchange[] pair = introduce(UcxTrust.none(), rules);
        UcxTrustExchange server = pair[1];
        assertTrue(server.trusts(new InetSocketAddress(address(10, 1, 2, 3), 1), null, NOT_LOCAL));
        assertTrue(server.trusts(new InetSocketAddress(InetAddress.getByName("fd00::5"), 1), null, NOT_LOCAL));
        assertFalse(server.trusts(new InetSocketAddress(address(11, 1, 2, 3), 1), null, NOT_LOCAL));
        assertFalse(server.trusts(STRANGER, pair[0].proof(), () -> ownUid), "networks only: not the same user");
        assertFalse(server.trusts(null, null, NOT_LOCAL), "no address known");
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        mapped[12] = 10;
        mapped[15] = 1;
        InetAddress ipv6View = Inet6Address.getByAddress(null, mapped, -1);
        assertTrue(server.trusts(new InetSocketAddress(ipv6View, 1), null, NOT_LOCAL),
                "an IPv4 peer of an IPv6 socket");
    }

    @Test
    void theSameUserIsTrustedByTheUidOfThePeersSocket() {
        UcxTrustExchange server = introduce(UcxTrust.none(), UcxTrust.sameUser())[1];
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 1);
        assertTrue(server.trusts(loopback, null, () -> ownUid), "a peer running as this user");
        assertFalse(server.trusts(loopback, null, () -> ownUid + 1), "another user on this host");
        assertFalse(server.trusts(loopback, null, () -> ownUid == 0 ? 65534 : 0), "root or nobody");
        assertFalse(server.trusts(loopback, null, NOT_LOCAL), "not a socket of this host: -1");
        assertFalse(server.trusts(loopback, null, () -> Integer.MIN_VALUE));
    }

    @Test
    void withoutTheSameUserRuleTheUidDoesNotCount() {
        for (UcxTrust rules : new UcxTrust[] {UcxTrust.none(), UcxTrust.networks("10.0.0.0/8"),
            UcxTrust.sharedSecret(SECRET)}) {
            UcxTrustExchange server = introduce(UcxTrust.none(), rules)[1];
            assertFalse(server.trusts(STRANGER, new byte[UcxHandshake.PROOF_BYTES], () -> ownUid), rules.toString());
        }
    }

    @Test
    void combinedRulesTrustByAnyOfThem() {
        UcxTrust rules = UcxTrust.sameUser().or(UcxTrust.sharedSecret(SECRET));
        UcxTrustExchange[] knowing = introduce(UcxTrust.sharedSecret(SECRET), rules);
        assertTrue(knowing[1].trusts(STRANGER, knowing[0].proof(), NOT_LOCAL), "by the secret, another host");
        UcxTrustExchange[] local = introduce(UcxTrust.sharedSecret(OTHER_SECRET), rules);
        assertTrue(local[1].trusts(STRANGER, local[0].proof(), () -> ownUid), "by the uid, a wrong secret");
        assertFalse(local[1].trusts(STRANGER, local[0].proof(), () -> ownUid + 1), "neither");
    }
}
