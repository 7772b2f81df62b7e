/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxHandshake;
import io.github.nettyucx.handshake.UcxKeys;
import io.github.nettyucx.handshake.UcxSession;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.handshake.UcxTrustExchange;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing (Jazzer) of what the side channel parses from a peer that is not trusted yet (protocol
 * v6, docs/protocol.md): the intros ({@link UcxHandshake#decodeIntro}), the hellos ({@link UcxHandshake#decodeHello})
 * and the address message ({@link UcxHandshake#decodeAddress}), and of the trust exchange's verdict on a proof
 * ({@link UcxTrustExchange#trusts}). (The record parser is {@link UcxSession}'s, covered by
 * {@link HostileSideChannelTest} and {@link HostileNumbersTest}.)
 * <p>
 * The first byte of an input selects the variant (bit 0: the peer is a server for intros, a client for hellos);
 * the parser gets the rest. By default the inputs in {@code HandshakeFuzzTestInputs/<method>} (seeds and any crash
 * reproducers) are replayed as regression tests. {@code -Djazzer.fuzz=true} (the long suite's fuzz command, see
 * docs/reliability.md) fuzzes for the time given by {@code maxDuration}.
 * <p>
 * Whatever the bytes, a parser either asks for more (consuming nothing), refuses them with a
 * {@link ProtocolException}, or returns a value within its limits having consumed exactly its own length. Any other
 * exception is a bug. Feeding a prefix must not give another outcome than the whole (the side channel delivers
 * arbitrary pieces).
 */
class HandshakeFuzzTest {
    private static final byte[] OWN_NONCE = new byte[UcxHandshake.NONCE_BYTES];

    static {
        Arrays.fill(OWN_NONCE, (byte) 0x5A);
    }

    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 6, unit = TimeUnit.MINUTES) // fuzzing mode runs for maxDuration in one invocation
    void decodeIntro(byte[] data) {
        fuzz(data, this::intro);
    }

    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void decodeHello(byte[] data) {
        fuzz(data, this::hello);
    }

    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void decodeAddress(byte[] data) {
        fuzz(data, this::address);
    }

    /**
     * A server with a shared secret judges a client's proof: bytes 1..16 are the client's nonce, 17..48 its proof.
     * Only the HMAC of the secret over the client label and both nonces is accepted: not the server's own proof
     * reflected back, not the proof of another secret, not zeros, not anything else.
     */
    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void trustExchange(byte[] data) {
        byte[] secret = HexFormat.of().parseHex("5f0c2a9e17d3b48e6a01c7f2934be85d0a6c13e7f94b28d5c370e1a98b4f2d6c");
        byte[] clientNonce = Arrays.copyOfRange(data, Math.min(1, data.length),
                Math.min(1 + UcxHandshake.NONCE_BYTES, data.length));
        clientNonce = Arrays.copyOf(clientNonce, UcxHandshake.NONCE_BYTES);
        byte[] proof = Arrays.copyOfRange(data, Math.min(1 + UcxHandshake.NONCE_BYTES, data.length),
                Math.min(1 + UcxHandshake.NONCE_BYTES + UcxHandshake.PROOF_BYTES, data.length));
        InetSocketAddress remote = new InetSocketAddress("192.0.2.1", 4000);

        UcxTrustExchange server = new UcxTrustExchange(UcxTrust.sharedSecret(secret), true);
        server.peerNonce(clientNonce);
        server.peerKeyIds(Arrays.copyOf(UcxKeys.keyId(secret), UcxHandshake.KEY_IDS_BYTES));
        // docs/protocol.md: key id || HMAC-SHA256(secret, "netty-ucx 8 client" || client nonce || server nonce).
        byte[] expected = proof(secret, "netty-ucx 8 client", clientNonce, server.ownNonce());
        assertArrayEquals(proof(secret, "netty-ucx 8 server", clientNonce, server.ownNonce()), server.proof(),
                "the server's proof is not the one docs/protocol.md describes");

        boolean trusted = server.trusts(remote, proof, () -> -1);
        assertEquals(Arrays.equals(proof, expected), trusted, "verdict on proof " + Arrays.toString(proof));
        assertTrue(server.trusts(remote, expected, () -> -1), "the honest client's proof refused");
        assertFalse(server.trusts(remote, server.proof(), () -> -1), "the server's own proof, reflected, trusted");
        assertFalse(server.trusts(remote, new byte[UcxHandshake.PROOF_BYTES], () -> -1), "a zero proof trusted");
        assertFalse(server.trusts(remote, null, () -> 0), "no proof trusted (the uid is not a rule here)");
        // Another secret: refused unless HMAC cannot tell it from ours (HMAC pads a key shorter than its block with
        // zero bytes, so our secret with zero bytes appended is the same key: the fuzzer found that).
        byte[] otherSecret = Arrays.copyOf(data, Math.max(UcxTrust.MIN_SECRET_BYTES, data.length));
        // Under our key's id, so that the HMAC is what decides.
        byte[] otherProof = Arrays.copyOf(UcxKeys.keyId(secret), UcxHandshake.PROOF_BYTES);
        System.arraycopy(hmac(otherSecret, "netty-ucx 8 client", clientNonce, server.ownNonce()), 0, otherProof,
                UcxKeys.KEY_ID_BYTES, UcxHandshake.MAC_BYTES);
        assertEquals(Arrays.equals(otherProof, expected), server.trusts(remote, otherProof, () -> -1),
                "a proof made with another secret");

        // A client of the transport and a server of the transport, with the same secret, trust each other.
        UcxTrustExchange client = new UcxTrustExchange(UcxTrust.sharedSecret(secret), false);
        UcxTrustExchange honestServer = new UcxTrustExchange(UcxTrust.sharedSecret(secret), true);
        honestServer.peerNonce(client.ownNonce());
        honestServer.peerKeyIds(client.ownKeyIds());
        client.peerNonce(honestServer.ownNonce());
        assertTrue(client.trusts(remote, honestServer.proof(), () -> -1), "the client refused the server's proof");
        assertTrue(honestServer.trusts(remote, client.proof(), () -> -1), "the server refused the client's proof");
        assertFalse(client.trusts(remote, client.proof(), () -> -1), "the client's own proof, reflected, trusted");
        // Trust none: nothing is trusted, whatever the proof or the uid.
        UcxTrustExchange none = new UcxTrustExchange(UcxTrust.none(), true);
        none.peerNonce(clientNonce);
        assertFalse(none.trusts(remote, proof, () -> 0), "trust=none trusted a peer");
        assertArrayEquals(new byte[UcxHandshake.PROOF_BYTES], none.proof(), "a proof without a secret");
    }

    private static byte[] proof(byte[] secret, String label, byte[] clientNonce, byte[] serverNonce) {
        byte[] proof = Arrays.copyOf(UcxKeys.keyId(secret), UcxHandshake.PROOF_BYTES);
        System.arraycopy(hmac(secret, label, clientNonce, serverNonce), 0, proof, UcxKeys.KEY_ID_BYTES,
                UcxHandshake.MAC_BYTES);
        return proof;
    }

    private static byte[] hmac(byte[] secret, String label, byte[] clientNonce, byte[] serverNonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(label.getBytes(StandardCharsets.US_ASCII));
            mac.update(clientNonce);
            mac.update(serverNonce);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Parses one of the three; returns what it parsed, or null when it asks for more. */
    private interface Parser {
        Object parse(ByteBuffer in, boolean variant) throws ProtocolException;
    }

    private static void fuzz(byte[] data, Parser parser) {
        boolean variant = data.length > 0 && (data[0] & 1) != 0;
        byte[] bytes = data.length > 0 ? Arrays.copyOfRange(data, 1, data.length) : data;
        Outcome whole = decode(parser, ByteBuffer.wrap(bytes), variant);
        if (bytes.length > 1) {
            int split = Math.floorMod(bytes[0] * 31 + bytes.length, bytes.length);
            Outcome prefix = decode(parser, ByteBuffer.wrap(bytes, 0, split).slice(), variant);
            if (prefix.value != null) {
                assertNotNull(whole.value, "a prefix was parsed but the whole input was not");
                assertEquals(prefix.consumed, whole.consumed, "a prefix and the whole consumed different lengths");
            } else if (prefix.refusal != null) {
                assertNotNull(whole.refusal, "a prefix was refused but the whole input was not: " + prefix.refusal);
            }
        }
    }

    private static Outcome decode(Parser parser, ByteBuffer in, boolean variant) {
        int start = in.position();
        try {
            Object value = parser.parse(in, variant);
            if (value == null) {
                assertEquals(start, in.position(), "bytes consumed although more were needed");
            }
            return new Outcome(value, in.position() - start, null);
        } catch (ProtocolException e) {
            return new Outcome(null, 0, e);
        }
    }

    /** A server's intro (variant) or a client's; ours is {@link #OWN_NONCE}. */
    private Object intro(ByteBuffer in, boolean fromServer) throws ProtocolException {
        int start = in.position();
        UcxHandshake.Intro intro = UcxHandshake.decodeIntro(in, fromServer, OWN_NONCE);
        if (intro == null) {
            return null;
        }
        assertEquals(UcxHandshake.MAGIC, in.getInt(start));
        assertEquals(UcxHandshake.VERSION, in.getShort(start + 4));
        assertEquals(UcxHandshake.NONCE_BYTES, intro.nonce.length);
        assertFalse(Arrays.equals(OWN_NONCE, intro.nonce), "our own intro, sent back, was taken for a peer's");
        if (fromServer) {
            assertNotNull(intro.proof);
            assertEquals(UcxHandshake.PROOF_BYTES, intro.proof.length);
        } else {
            assertNull(intro.proof);
        }
        assertEquals(fromServer ? UcxHandshake.SERVER_INTRO_BYTES : UcxHandshake.INTRO_BYTES, in.position() - start,
                "an intro must consume exactly its own bytes");
        return intro;
    }

    /** A client's hello (variant, with its proof) or a server's. */
    private Object hello(ByteBuffer in, boolean fromClient) throws ProtocolException {
        int start = in.position();
        UcxHandshake.Hello hello = UcxHandshake.decodeHello(in, fromClient);
        if (hello == null) {
            return null;
        }
        assertTrue(hello.connectionId != 0, "connection id 0");
        assertTrue(hello.recvWindow >= 1 && hello.recvWindow <= UcxHandshake.MAX_RECV_WINDOW,
                "window " + Integer.toUnsignedString(hello.recvWindow));
        assertTrue(hello.recvUnit >= UcxHandshake.MIN_RECV_UNIT && hello.recvUnit <= UcxHandshake.MAX_RECV_UNIT,
                "unit " + Integer.toUnsignedString(hello.recvUnit));
        assertTrue(hello.flags >= 0 && hello.flags <= 0xFFFF, "flags " + hello.flags);
        assertEquals(UcxHandshake.HOST_PROOF_BYTES, hello.hostProof.length);
        assertNull(hello.workerAddress, "a hello carries no worker address");
        if (fromClient) {
            assertEquals(UcxHandshake.PROOF_BYTES, hello.proof.length);
        } else {
            assertNull(hello.proof);
        }
        assertEquals(fromClient ? UcxHandshake.CLIENT_HELLO_BYTES : UcxHandshake.HELLO_BYTES, in.position() - start,
                "a hello must consume exactly its own bytes");
        return hello;
    }

    private Object address(ByteBuffer in, boolean unused) throws ProtocolException {
        int start = in.position();
        UcxHandshake.WorkerAddress message = UcxHandshake.decodeAddress(in);
        if (message == null) {
            return null;
        }
        byte[] address = message.bytes;
        assertTrue(address.length > 0 && address.length <= UcxHandshake.MAX_WORKER_ADDRESS,
                "worker address length " + address.length);
        assertEquals(UcxHandshake.ADDRESS_MAC_BYTES, message.mac.length);
        assertEquals(address.length, in.getInt(start));
        assertEquals(UcxHandshake.ADDRESS_HEADER_BYTES + address.length + UcxHandshake.ADDRESS_MAC_BYTES,
                in.position() - start, "an address message must consume exactly its own bytes");
        return address;
    }

    private static final class Outcome {
        final Object value;
        final int consumed;
        final ProtocolException refusal;

        Outcome(Object value, int consumed, ProtocolException refusal) {
            this.value = value;
            this.consumed = consumed;
            this.refusal = refusal;
        }
    }
}
