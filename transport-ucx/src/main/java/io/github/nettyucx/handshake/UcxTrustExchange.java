/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.github.nettyucx.loop.UcxWorkerKey;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.function.IntSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One side's part in deciding whether two peers trust each other with UCX (docs/security.md): its random
 * challenge, its proof of the shared key, and its verdict on the peer under its {@link UcxTrust}. Each side's
 * proof is the id of the key it uses and an HMAC-SHA256, keyed with that key, over a label naming its role and both
 * challenges: it cannot be replayed on another connection, nor reflected back to the side that sent it. The key is
 * agreed without trial: the client's intro names its keys (one or two, by {@link UcxKeys#keyId}), the server proves
 * with the first of its own that the client named (nothing when none), and the client proves, with that key, only
 * to a server whose proof checked out. With a key, each side's worker address also comes with such a MAC over its
 * hello and the address, so that a peer that proved the key is known to have sent both as they arrived: a man in
 * the middle that relays the proofs cannot point our endpoint elsewhere. Pure Java; the peer's uid comes from the
 * supplier the channel gives (the kernel's socket table).
 * <p>
 * Each side's hello also proves that the side runs on this host: an HMAC keyed with the host's boot id, which any
 * local process can read and no remote one knows. The same-user rule holds only for a peer that proved it: a
 * forwarder run by our user (ssh -R, kubectl port-forward) owns the socket but relays a stranger who cannot.
 */
public final class UcxTrustExchange {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] NO_PROOF = new byte[UcxHandshake.PROOF_BYTES];
    private static final byte[] SERVER_LABEL = "netty-ucx 8 server".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLIENT_LABEL = "netty-ucx 8 client".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_ADDRESS_LABEL = "netty-ucx 8 server address".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLIENT_ADDRESS_LABEL = "netty-ucx 8 client address".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_HOST_LABEL = "netty-ucx 8 server host".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLIENT_HOST_LABEL = "netty-ucx 8 client host".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HOST_KEY = UcxHandshake.hostKey();
    private static final byte[] SERVER_OWNER_LABEL = "netty-ucx 8 server owner".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLIENT_OWNER_LABEL = "netty-ucx 8 client owner".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NO_KEY_ID = new byte[UcxKeys.KEY_ID_BYTES];
    private static final int OWN_UID = ownUid();

    private final UcxTrust trust;
    private final boolean server;
    private final byte[] ownNonce = new byte[UcxHandshake.NONCE_BYTES];
    private byte[] peerNonce;
    /**
     * The key both sides use: a server's, the first of its keys the client's intro named; a client's, the one the
     * server's proof named, once that proof checked out. Null until then, or for good: this side proves nothing.
     */
    private byte[] key;
    /** {@link #key}'s id (from {@link UcxTrust#keyIds()}, computed once). */
    private byte[] keyId;
    /** The peer's proof of the key checked out: its address must come with a valid MAC. */
    private boolean peerProvedSecret;
    /** The verdict of {@link #trusts} rested on the same-user rule alone. */
    private boolean trustedAsSameUserOnly;

    public UcxTrustExchange(UcxTrust trust, boolean server) {
        this.trust = trust;
        this.server = server;
        RANDOM.nextBytes(ownNonce);
    }

    public byte[] ownNonce() {
        return ownNonce;
    }

    /** The ids of this side's keys, for a client's intro: {@link UcxHandshake#KEY_IDS_BYTES}, zeros where none. */
    public byte[] ownKeyIds() {
        ByteBuffer ids = ByteBuffer.allocate(UcxHandshake.KEY_IDS_BYTES);
        for (byte[] id : trust.keyIds()) {
            ids.put(id);
        }
        return ids.array();
    }

    /** The peer's challenge arrived (in its intro). */
    public void peerNonce(byte[] nonce) {
        peerNonce = nonce.clone();
    }

    /**
     * A server learns the client's keys from its intro: it will prove with the first of its own that the client
     * named, and with none (a zero proof) when they share no key, so that a client without a key gets no proof.
     */
    public void peerKeyIds(byte[] keyIds) {
        key = null;
        keyId = null;
        for (int k = 0; k < trust.secrets().size(); k++) {
            byte[] id = trust.keyIds().get(k);
            for (int at = 0; at + UcxKeys.KEY_ID_BYTES <= keyIds.length; at += UcxKeys.KEY_ID_BYTES) {
                if (MessageDigest.isEqual(id, Arrays.copyOfRange(keyIds, at, at + UcxKeys.KEY_ID_BYTES))) {
                    key = trust.secrets().get(k);
                    keyId = id;
                    return;
                }
            }
        }
    }

    /** This side's proof for the peer: the key's id and the HMAC; all zeros without an agreed key. */
    public byte[] proof() {
        if (key == null) {
            return NO_PROOF.clone();
        }
        return ByteBuffer.allocate(UcxHandshake.PROOF_BYTES).put(keyId)
                .put(mac(key, server ? SERVER_LABEL : CLIENT_LABEL)).array();
    }

    /**
     * Whether this side trusts the peer at {@code remote}, which sent {@code peerProof}; {@code peerUid} tells who
     * owns the peer's end of the TCP connection (-1: not a socket of this host and network namespace). A client
     * takes the key the server's proof names, if it holds it and the proof checks out with it.
     */
    public boolean trusts(InetSocketAddress remote, byte[] peerProof, IntSupplier peerUid) {
        peerProvedSecret = false;
        if (peerProof != null && peerProof.length == UcxHandshake.PROOF_BYTES) {
            byte[] id = Arrays.copyOf(peerProof, UcxKeys.KEY_ID_BYTES);
            byte[] peerMac = Arrays.copyOfRange(peerProof, UcxKeys.KEY_ID_BYTES, peerProof.length);
            byte[] candidate;
            byte[] candidateId;
            if (server) {
                candidate = key;
                candidateId = keyId;
            } else {
                int own = ownKeyIndex(id);
                candidate = own < 0 ? null : trust.secrets().get(own);
                candidateId = own < 0 ? null : trust.keyIds().get(own);
            }
            peerProvedSecret = candidate != null && !MessageDigest.isEqual(id, NO_KEY_ID)
                    && MessageDigest.isEqual(id, candidateId)
                    && MessageDigest.isEqual(peerMac, mac(candidate, server ? CLIENT_LABEL : SERVER_LABEL));
            if (!server) {
                key = peerProvedSecret ? candidate : null;
                keyId = peerProvedSecret ? candidateId : null;
            }
        }
        trustedAsSameUserOnly = false;
        if (trust.trustsAnyPeer() || peerProvedSecret) {
            return true;
        }
        if (remote != null && trust.inTrustedNetwork(remote.getAddress())) {
            return true;
        }
        trustedAsSameUserOnly = trust.trustsSameUser() && OWN_UID >= 0 && peerUid.getAsInt() == OWN_UID;
        return trustedAsSameUserOnly;
    }

    /**
     * A client trusts the server at its intro, before the server's host proof (in its hello) arrived: a client that
     * trusted it as the same user only refuses a server whose hello does not prove it runs on this host.
     */
    void checkSameUserOnSameHost(UcxHandshake.Hello peer) throws ProtocolException {
        if (trustedAsSameUserOnly && !peer.sameHost()) {
            throw new ProtocolException("the server's socket belongs to this user, but the server did not prove that "
                    + "it runs on this host: a forwarder (ssh -R, kubectl port-forward, a proxy) run by this user "
                    + "relays it; trust such servers with a shared key (docs/security.md)");
        }
    }

    /** This side's host proof for its hello (docs/protocol.md): only processes of this host can make it. */
    public byte[] hostProof() {
        return hostProof(server, server ? peerNonce : ownNonce, server ? ownNonce : peerNonce);
    }

    /** The host proof the peer's hello carries if the peer runs on this host. */
    public byte[] expectedPeerHostProof() {
        return hostProof(!server, server ? peerNonce : ownNonce, server ? ownNonce : peerNonce);
    }

    /** The host proof of a server's hello ({@code fromServer}) or a client's, on this host, for these challenges. */
    public static byte[] hostProof(boolean fromServer, byte[] clientNonce, byte[] serverNonce) {
        if (clientNonce == null || serverNonce == null) {
            throw new IllegalStateException("no challenge from the peer yet");
        }
        return Arrays.copyOf(hmac(HOST_KEY, fromServer ? SERVER_HOST_LABEL : CLIENT_HOST_LABEL, clientNonce,
                serverNonce), UcxHandshake.HOST_PROOF_BYTES);
    }

    /** The MAC of this side's worker address, over our hello's body and the address; zeros without a key. */
    byte[] addressMac(byte[] ownHelloBody, byte[] ownAddress) {
        return key == null ? new byte[UcxHandshake.ADDRESS_MAC_BYTES]
                : mac(key, server ? SERVER_ADDRESS_LABEL : CLIENT_ADDRESS_LABEL, ownHelloBody, ownAddress);
    }

    /**
     * Checks the MAC of the peer's worker address, when the peer proved the secret (a peer trusted by another rule
     * has no key to make one): the address and the hello it came after must be the ones the peer sent.
     */
    void checkAddress(UcxHandshake.Hello peer) throws ProtocolException {
        if (peerProvedSecret && !MessageDigest.isEqual(peer.addressMac,
                mac(key, server ? CLIENT_ADDRESS_LABEL : SERVER_ADDRESS_LABEL, peer.body, peer.workerAddress))) {
            throw new ProtocolException("the peer's hello or worker address was altered on the way: its MAC does not "
                    + "match the shared secret's");
        }
    }

    /**
     * The MAC that proves this side holds the owner key its hello named ({@link UcxWorkerKey}), over both challenges
     * and our address: keyed with the X25519 secret of our key and the peer's ({@code ownerSecret}).
     */
    public byte[] ownershipMac(byte[] ownerSecret, byte[] ownAddress) {
        return mac(ownerSecret, server ? SERVER_OWNER_LABEL : CLIENT_OWNER_LABEL, ownAddress);
    }

    /**
     * Checks that the peer holds the owner key its hello named, for the address it sent: only then may its
     * connection share an endpoint with others of that key and address (docs/protocol.md#endpoints).
     */
    void checkOwnership(byte[] ownerSecret, UcxHandshake.Hello peer) throws ProtocolException {
        if (!MessageDigest.isEqual(peer.ownershipMac,
                mac(ownerSecret, server ? CLIENT_OWNER_LABEL : SERVER_OWNER_LABEL, peer.workerAddress))) {
            throw new ProtocolException("the peer did not prove that it holds the owner key of the worker address it "
                    + "sent (docs/security.md)");
        }
    }

    /** The rules this side trusts peers by, for messages. */
    UcxTrust rules() {
        return trust;
    }

    /** The index of this side's key with id {@code id} in its {@link UcxTrust#secrets()}, or -1. */
    private int ownKeyIndex(byte[] id) {
        for (int k = 0; k < trust.keyIds().size(); k++) {
            if (MessageDigest.isEqual(id, trust.keyIds().get(k))) {
                return k;
            }
        }
        return -1;
    }

    private byte[] mac(byte[] secret, byte[] label, byte[]... rest) {
        if (peerNonce == null) {
            throw new IllegalStateException("no challenge from the peer yet");
        }
        return hmac(secret, label, server ? peerNonce : ownNonce, server ? ownNonce : peerNonce, rest);
    }

    private static byte[] hmac(byte[] secret, byte[] label, byte[] clientNonce, byte[] serverNonce, byte[]... rest) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
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
