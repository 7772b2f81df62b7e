/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.function.IntSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One side's part in deciding whether two peers trust each other with UCX (docs/security.md): its random
 * challenge, its proof of the shared secret, and its verdict on the peer under its {@link UcxTrust}. Each side's
 * proof is an HMAC-SHA256, keyed with the secret, over a label naming its role and both challenges: it cannot be
 * replayed on another connection, nor reflected back to the side that sent it. With a secret, each side's worker
 * address also comes with such a MAC over its hello and the address, so that a peer that proved the secret is
 * known to have sent both as they arrived: a man in the middle that relays the proofs cannot point our endpoint
 * elsewhere. Pure Java; the peer's uid comes from the supplier the channel gives (the kernel's socket table).
 */
final class UcxTrustExchange {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] NO_PROOF = new byte[UcxHandshake.PROOF_BYTES];
    private static final byte[] SERVER_LABEL = "netty-ucx 5 server".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLIENT_LABEL = "netty-ucx 5 client".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_ADDRESS_LABEL = "netty-ucx 5 server address".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLIENT_ADDRESS_LABEL = "netty-ucx 5 client address".getBytes(StandardCharsets.US_ASCII);
    private static final int OWN_UID = ownUid();

    private final UcxTrust trust;
    private final boolean server;
    private final byte[] ownNonce = new byte[UcxHandshake.NONCE_BYTES];
    private byte[] peerNonce;
    /** The peer's proof of the secret checked out: its address must come with a valid MAC. */
    private boolean peerProvedSecret;

    UcxTrustExchange(UcxTrust trust, boolean server) {
        this.trust = trust;
        this.server = server;
        RANDOM.nextBytes(ownNonce);
    }

    byte[] ownNonce() {
        return ownNonce;
    }

    /** The peer's challenge arrived (in its intro). */
    void peerNonce(byte[] nonce) {
        peerNonce = nonce.clone();
    }

    /** This side's proof for the peer: all zeros without a secret. */
    byte[] proof() {
        return trust.secret() == null ? NO_PROOF.clone() : mac(server ? SERVER_LABEL : CLIENT_LABEL);
    }

    /**
     * Whether this side trusts the peer at {@code remote}, which sent {@code peerProof}; {@code peerUid} tells who
     * owns the peer's end of the TCP connection (-1: not a socket of this host and network namespace).
     */
    boolean trusts(InetSocketAddress remote, byte[] peerProof, IntSupplier peerUid) {
        peerProvedSecret = trust.secret() != null && peerProof != null
                && MessageDigest.isEqual(peerProof, mac(server ? CLIENT_LABEL : SERVER_LABEL));
        if (trust.trustsAnyPeer() || peerProvedSecret) {
            return true;
        }
        if (remote != null && trust.inTrustedNetwork(remote.getAddress())) {
            return true;
        }
        return trust.trustsSameUser() && OWN_UID >= 0 && peerUid.getAsInt() == OWN_UID;
    }

    /** The MAC of this side's worker address, over our hello's body and the address; zeros without a secret. */
    byte[] addressMac(byte[] ownHelloBody, byte[] ownAddress) {
        return trust.secret() == null ? new byte[UcxHandshake.ADDRESS_MAC_BYTES]
                : mac(server ? SERVER_ADDRESS_LABEL : CLIENT_ADDRESS_LABEL, ownHelloBody, ownAddress);
    }

    /**
     * Checks the MAC of the peer's worker address, when the peer proved the secret (a peer trusted by another rule
     * has no key to make one): the address and the hello it came after must be the ones the peer sent.
     */
    void checkAddress(UcxHandshake.Hello peer) throws ProtocolException {
        if (peerProvedSecret && !MessageDigest.isEqual(peer.addressMac,
                mac(server ? CLIENT_ADDRESS_LABEL : SERVER_ADDRESS_LABEL, peer.body, peer.workerAddress))) {
            throw new ProtocolException("the peer's hello or worker address was altered on the way: its MAC does not "
                    + "match the shared secret's");
        }
    }

    /** The rules this side trusts peers by, for messages. */
    UcxTrust rules() {
        return trust;
    }

    private byte[] mac(byte[] label, byte[]... rest) {
        if (peerNonce == null) {
            throw new IllegalStateException("no challenge from the peer yet");
        }
        byte[] clientNonce = server ? peerNonce : ownNonce;
        byte[] serverNonce = server ? ownNonce : peerNonce;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(trust.secret(), "HmacSHA256"));
            mac.update(label);
            mac.update(clientNonce);
            mac.update(serverNonce);
            for (byte[] part : rest) {
                // Length first: the parts' boundaries are part of what the MAC covers.
                mac.update(ByteBuffer.allocate(4).putInt(part.length).array());
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    /** This process's uid, from the kernel; -1 (trusting no one as the same user) when it cannot be read. */
    private static int ownUid() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Uid:")) {
                    // Real, effective, saved, filesystem: sockets belong to the effective uid.
                    return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }
}
