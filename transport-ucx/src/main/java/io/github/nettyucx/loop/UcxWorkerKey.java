/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import java.math.BigInteger;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPublicKeySpec;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.KeyAgreement;

/**
 * A worker's owner key (docs/protocol.md#endpoints): an X25519 key pair whose public half goes into every hello of
 * the worker's connections. A peer proves it owns the worker address it sends by a MAC keyed with the X25519 secret
 * of its key and ours, which only the holders of the two private keys can compute; connections share an endpoint
 * only when their peers proved the same key for the same address. A peer that names another process's worker
 * address under a key of its own gets an endpoint of its own. The secret for each peer key is kept (a few hundred,
 * oldest first out), so that one X25519 agreement serves every connection between two workers.
 */
public final class UcxWorkerKey {
    public static final int KEY_BYTES = 32;
    private static final int REMEMBERED = 256;

    private final KeyPair pair;
    private final byte[] publicKey;
    private final Map<ByteBuffer, byte[]> secrets = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteBuffer, byte[]> eldest) {
            return size() > REMEMBERED;
        }
    };

    /**
     * Why this runtime cannot make owner keys, or null when it can: X25519 is in the jdk.crypto.ec module before
     * JDK 22 (java.base since), which a trimmed runtime image may leave out. Checked when the transport loads.
     */
    static String unavailabilityCause() {
        try {
            KeyPairGenerator.getInstance("X25519");
            KeyAgreement.getInstance("X25519");
            return null;
        } catch (GeneralSecurityException e) {
            return "X25519, which the handshake's owner keys use, is missing from this Java runtime (" + e.getMessage()
                    + "): on JDK 17 to 21 add the jdk.crypto.ec module to the runtime image (jlink --add-modules "
                    + "jdk.crypto.ec)";
        }
    }

    public UcxWorkerKey() {
        try {
            pair = KeyPairGenerator.getInstance("X25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("X25519 is missing from this JDK", e);
        }
        publicKey = encode(((XECPublicKey) pair.getPublic()).getU());
    }

    /** The public key, as the hello carries it: RFC 7748's 32 little-endian bytes. */
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The X25519 secret of our key and {@code peerKey}; refuses keys that give none (small-order points). */
    public synchronized byte[] secretWith(byte[] peerKey) throws ProtocolException {
        ByteBuffer id = ByteBuffer.wrap(peerKey.clone());
        byte[] secret = secrets.get(id);
        if (secret == null) {
            try {
                KeyAgreement agreement = KeyAgreement.getInstance("X25519");
                agreement.init(pair.getPrivate());
                agreement.doPhase(decode(peerKey), true);
                secret = agreement.generateSecret();
            } catch (GeneralSecurityException | RuntimeException e) {
                throw new ProtocolException("the peer's owner key is not a usable X25519 key: " + e.getMessage());
            }
            secrets.put(id, secret);
        }
        return secret;
    }

    private static byte[] encode(BigInteger u) {
        byte[] big = u.toByteArray();
        byte[] little = new byte[KEY_BYTES];
        for (int i = 0; i < Math.min(KEY_BYTES, big.length); i++) {
            little[i] = big[big.length - 1 - i];
        }
        return little;
    }

    private static PublicKey decode(byte[] little) throws GeneralSecurityException {
        if (little.length != KEY_BYTES) {
            throw new GeneralSecurityException("an owner key has " + KEY_BYTES + " bytes, not " + little.length);
        }
        byte[] big = new byte[KEY_BYTES];
        for (int i = 0; i < KEY_BYTES; i++) {
            big[i] = little[KEY_BYTES - 1 - i];
        }
        // RFC 7748: the top bit of the last byte is not part of the coordinate.
        big[0] &= 0x7F;
        return KeyFactory.getInstance("X25519")
                .generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, new BigInteger(1, big)));
    }
}
