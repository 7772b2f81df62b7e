/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.github.nettyucx.loop.UcxWorkerKey;
import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.UUID;

/**
 * What the two sides say on the side channel (docs/protocol.md): first the intros, with which each side learns
 * whether it trusts the other, then the hellos, then (only between peers that trust each other, for UCX) the UCP
 * worker addresses, then records.
 * <pre>
 * client intro:  magic u32 | version u16 | flags u16 | nonce 16 bytes | key ids 2 x 8 bytes
 * server intro:  magic u32 | version u16 | flags u16 | nonce 16 bytes | proof 40 bytes
 * proof:         key id 8 bytes | HMAC 32 bytes
 * hello:         [client: proof 40 bytes] | flags u16 | 0 u16 | connection id u32 | tag secret u64 |
 *                receive window u32 | receive unit u32 | boot id 16 bytes | message key u32
 * address:       length u32 | UCP worker address | MAC 32 bytes
 * record:        type u8 ('S' output shut down, 'C' closed, 'R' closed with a reset) | messages sent before it u32
 * </pre>
 * Integers are big endian. The hello's flags are {@link UcxDataPathPolicy}'s. The proofs are
 * {@link UcxTrustExchange}'s. Everything after the hello (and the address) is a stream of records, or, on the TCP
 * data path, the application's bytes as plain TCP.
 */
public final class UcxHandshake {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxHandshake.class);
    public static final int MAGIC = 0x4E554358; // "NUCX"
    /**
     * 8: the client's intro names its keys (by key id), and each proof starts with the id of the key it uses, so
     * that peers with two keys during a rotation agree on one; the hello's flags tell whether the sender's UCX has
     * its own tcp transport (open only with the TCP data path off). 7: after the hellos the TCP data path is plain
     * TCP. 6: the hello ends with the message key that every UCX message's header carries. 5: an address message
     * ends with a MAC over the sender's hello and its address. 4: intros first, the client's address only after the
     * server's intro, addresses only between peers that trust each other. 3: the server answered once the client's
     * magic arrived. 2 added the reset record.
     */
    public static final short VERSION = 8;
    public static final int NONCE_BYTES = 16;
    /** The key ids a client's intro carries: {@link UcxTrust#MAX_SECRETS} slots, zeros where it has no key. */
    public static final int KEY_IDS_BYTES = UcxTrust.MAX_SECRETS * UcxKeys.KEY_ID_BYTES;
    public static final int MAC_BYTES = 32;
    /** A proof: the id of the key it is made with, and the HMAC. All zeros from a side that proves nothing. */
    public static final int PROOF_BYTES = UcxKeys.KEY_ID_BYTES + MAC_BYTES;
    /** A client's intro. */
    public static final int INTRO_BYTES = 8 + NONCE_BYTES + KEY_IDS_BYTES;
    public static final int SERVER_INTRO_BYTES = 8 + NONCE_BYTES + PROOF_BYTES;
    public static final int HELLO_BYTES = 76;
    static final int OWNER_KEY_BYTES = UcxWorkerKey.KEY_BYTES;
    /** The MAC after an address's that proves the sender holds the owner key its hello named. */
    public static final int OWNERSHIP_MAC_BYTES = MAC_BYTES;
    public static final int CLIENT_HELLO_BYTES = PROOF_BYTES + HELLO_BYTES;
    public static final int ADDRESS_HEADER_BYTES = 4;
    /** The MAC that ends an address message: all zeros from a side without a shared secret. */
    public static final int ADDRESS_MAC_BYTES = MAC_BYTES;
    public static final int MAX_WORKER_ADDRESS = 64 * 1024;
    public static final int MAX_RECV_WINDOW = 1 << 16;
    public static final int MIN_RECV_UNIT = 64;
    public static final int MAX_RECV_UNIT = 64 * 1024 * 1024;
    public static final int RECORD_BYTES = 5;
    public static final byte RECORD_SHUTDOWN_OUTPUT = 'S';
    public static final byte RECORD_CLOSE = 'C';
    /** Closed with {@code SO_LINGER} 0: as {@link #RECORD_CLOSE}, and writes to this side fail as a reset. */
    static final byte RECORD_RESET = 'R';

    /**
     * This host's boot id: the key of the host proofs in the hellos ({@link UcxTrustExchange#hostProof()}), which
     * only processes of this host can make. It never goes on the wire.
     */
    private static final byte[] BOOT_ID = readBootId();
    public static final int HOST_PROOF_BYTES = 16;
    private static final String ERROR_HANDLING = SystemPropertyUtil.get(
            "io.github.nettyucx.peerErrorHandling", "always").toLowerCase(Locale.ROOT);

    private UcxHandshake() {
    }

    /** The peer's intro: its challenge, and (from a server) its answer to ours. */
    public static final class Intro {
        public final byte[] nonce;
        /** The server's proof, all zeros when it has no key the client named; null in a client's intro. */
        public final byte[] proof;
        /** The ids of the client's keys ({@link #KEY_IDS_BYTES}); null in a server's intro. */
        final byte[] keyIds;

        Intro(byte[] nonce, byte[] proof) {
            this(nonce, proof, null);
        }

        Intro(byte[] nonce, byte[] proof, byte[] keyIds) {
            this.nonce = nonce;
            this.proof = proof;
            this.keyIds = keyIds;
        }
    }

    /**
     * A worker address as an address message carries it, with the MAC over the sender's hello and it, and the MAC
     * that proves the sender holds its owner key.
     */
    public static final class WorkerAddress {
        public final byte[] bytes;
        public final byte[] mac;
        final byte[] ownershipMac;

        public WorkerAddress(byte[] bytes, byte[] mac, byte[] ownershipMac) {
            this.bytes = bytes;
            this.mac = mac;
            this.ownershipMac = ownershipMac;
        }
    }

    /** The peer's hello, as received, and its worker address once that followed. */
    public static final class Hello {
        public final int flags;
        public final int connectionId;
        /** The rest of the tags the peer receives with (ucx_native.h's tag layout). */
        public final long tagSecret;
        /** What the header of each message to the peer carries after the credits (ucx_native.h). */
        public final int messageKey;
        public final int recvWindow;
        public final int recvUnit;
        /** The public owner key of the sender's worker ({@link UcxWorkerKey}). */
        public final byte[] ownerKey;
        /** The sender's proof that it runs on our host, as it arrived. */
        public final byte[] hostProof;
        /** Whether {@link #hostProof} checked out: the peer is a process of this host. */
        private final boolean sameHost;
        /** The client's proof, all zeros when it has no secret; null in a server's hello. */
        public final byte[] proof;
        /** The hello's {@link #HELLO_BYTES} as they arrived (without a client's proof): what the address MAC covers. */
        final byte[] body;
        /** The peer's UCP worker address; null until it arrived (and for ever on the TCP data path). */
        public final byte[] workerAddress;
        /** The MAC that came with the worker address. */
        final byte[] addressMac;
        /** The MAC that proves the sender holds {@link #ownerKey}. */
        final byte[] ownershipMac;

        Hello(int flags, int connectionId, long tagSecret, int messageKey, int recvWindow, int recvUnit,
              byte[] hostProof, boolean sameHost, byte[] ownerKey, byte[] proof, byte[] body, WorkerAddress address) {
            this.flags = flags;
            this.connectionId = connectionId;
            this.tagSecret = tagSecret;
            this.messageKey = messageKey;
            this.recvWindow = recvWindow;
            this.recvUnit = recvUnit;
            this.hostProof = hostProof;
            this.sameHost = sameHost;
            this.ownerKey = ownerKey;
            this.proof = proof;
            this.body = body;
            this.workerAddress = address == null ? null : address.bytes;
            this.addressMac = address == null ? null : address.mac;
            this.ownershipMac = address == null ? null : address.ownershipMac;
        }

        /** This hello without what only connection setup reads: the worker address, the proof, the bytes, the MAC. */
        Hello settled() {
            return new Hello(flags, connectionId, tagSecret, messageKey, recvWindow, recvUnit, hostProof, sameHost,
                    ownerKey, null, null, null);
        }

        public Hello withAddress(WorkerAddress address) {
            return new Hello(flags, connectionId, tagSecret, messageKey, recvWindow, recvUnit, hostProof, sameHost,
                    ownerKey, proof, body, address);
        }

        public boolean sameHost() {
            return sameHost;
        }

        /**
         * UCX peer error handling for the endpoint to this peer: on unless switched off with
         * {@code -Dio.github.nettyucx.peerErrorHandling=never}. Without it, UCX 1.13 may use cma for
         * large messages between processes on one host, and aborts this process if the peer dies
         * in the middle of such a copy.
         */
        public boolean peerErrorHandling() {
            return !"never".equals(ERROR_HANDLING);
        }
    }

    /** A client's intro: the magic first, so that a server tells it from a plain TCP client at once. */
    public static ByteBuffer encodeClientIntro(byte[] nonce) {
        return encodeClientIntro(nonce, new byte[KEY_IDS_BYTES]);
    }

    /** A client's intro naming its keys ({@link UcxTrustExchange#ownKeyIds()}). */
    public static ByteBuffer encodeClientIntro(byte[] nonce, byte[] keyIds) {
        ByteBuffer intro = ByteBuffer.allocate(INTRO_BYTES);
        intro.putInt(MAGIC).putShort(VERSION).putShort((short) 0).put(nonce).put(keyIds).flip();
        return intro;
    }

    static ByteBuffer encodeServerIntro(byte[] nonce, byte[] proof) {
        ByteBuffer intro = ByteBuffer.allocate(SERVER_INTRO_BYTES);
        intro.putInt(MAGIC).putShort(VERSION).putShort((short) 0).put(nonce).put(proof).flip();
        return intro;
    }

    /**
     * A hello; {@code proof} goes first in a client's, and is null in a server's; {@code hostProof} is
     * {@link UcxTrustExchange#hostProof()}, {@code ownerKey} the worker's {@link UcxWorkerKey#publicKey()}.
     */
    public static ByteBuffer encodeHello(int flags, int connectionId, long tagSecret, int messageKey, int recvWindow,
                                  int recvUnit, byte[] hostProof, byte[] ownerKey, byte[] proof) {
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES + (proof == null ? 0 : PROOF_BYTES));
        if (proof != null) {
            hello.put(proof);
        }
        hello.putShort((short) flags).putShort((short) 0).putInt(connectionId).putLong(tagSecret).putInt(recvWindow)
                .putInt(recvUnit).put(hostProof, 0, HOST_PROOF_BYTES).putInt(messageKey)
                .put(ownerKey, 0, OWNER_KEY_BYTES).flip();
        return hello;
    }

    /** An address message with all-zero MACs, which no check accepts: for tests of what a receiver refuses. */
    public static ByteBuffer encodeAddress(byte[] workerAddress) {
        return encodeAddress(workerAddress, new byte[ADDRESS_MAC_BYTES], new byte[OWNERSHIP_MAC_BYTES]);
    }

    /**
     * An address message: the worker address, the MAC over the sender's hello and it (zeros from a side without a
     * shared key), and the MAC that proves the sender holds its owner key ({@link UcxTrustExchange#ownershipMac}).
     */
    public static ByteBuffer encodeAddress(byte[] workerAddress, byte[] mac, byte[] ownershipMac) {
        ByteBuffer address = ByteBuffer.allocate(ADDRESS_HEADER_BYTES + workerAddress.length + ADDRESS_MAC_BYTES
                + OWNERSHIP_MAC_BYTES);
        address.putInt(workerAddress.length).put(workerAddress).put(mac).put(ownershipMac).flip();
        return address;
    }

    /** The {@link #HELLO_BYTES} of a hello as {@link #encodeHello} wrote them, without a client's proof. */
    static byte[] helloBody(ByteBuffer hello) {
        byte[] body = new byte[HELLO_BYTES];
        hello.get(hello.limit() - HELLO_BYTES, body);
        return body;
    }

    /** What an accepted client's first bytes say it speaks. */
    enum ClientKind {
        /** Too few bytes, all of them the start of the hello's magic. */
        UNDECIDED,
        /** The hello's magic: a netty-ucx client. */
        UCX,
        /** Anything else. */
        PLAIN
    }

    /** Compares the start of {@code in} (in read mode, not consumed) with the hello's magic. */
    static ClientKind sniff(ByteBuffer in) {
        int start = in.position();
        int seen = Math.min(in.remaining(), Integer.BYTES);
        for (int i = 0; i < seen; i++) {
            byte expected = (byte) (MAGIC >>> (8 * (Integer.BYTES - 1 - i)));
            if (in.get(start + i) != expected) {
                return ClientKind.PLAIN;
            }
        }
        return seen == Integer.BYTES ? ClientKind.UCX : ClientKind.UNDECIDED;
    }

    /** The first bytes of {@code in} (up to a magic's four), in hex, for an error message. */
    static String magicSeen(ByteBuffer in) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(in.remaining(), Integer.BYTES); i++) {
            hex.append(String.format("%02x", in.get(in.position() + i) & 0xFF));
        }
        return hex.toString();
    }

    /**
     * Parses the peer's intro from the start of {@code in} (in read mode): a server's ({@code fromServer}, with its
     * proof) or a client's. Returns null when more bytes are needed; consumes the intro otherwise. An intro that
     * carries {@code ownNonce} is our own, sent back (an echo server).
     */
    public static Intro decodeIntro(ByteBuffer in, boolean fromServer, byte[] ownNonce) throws ProtocolException {
        if (in.remaining() < 8) {
            return null;
        }
        int start = in.position();
        if (in.getInt(start) != MAGIC) {
            throw new ProtocolException("not a netty-ucx peer (bad handshake magic 0x" + magicSeen(in) + ")");
        }
        short version = in.getShort(start + 4);
        if (version != VERSION) {
            throw new ProtocolException("unsupported netty-ucx protocol version " + version + " (this side speaks "
                    + VERSION + ")");
        }
        if (in.remaining() < 8 + NONCE_BYTES) {
            return null;
        }
        byte[] nonce = new byte[NONCE_BYTES];
        in.get(start + 8, nonce);
        if (java.util.Arrays.equals(nonce, ownNonce)) {
            throw new ProtocolException("not a netty-ucx peer (it sent our own intro back)");
        }
        if (!fromServer) {
            if (in.remaining() < INTRO_BYTES) {
                return null;
            }
            byte[] keyIds = new byte[KEY_IDS_BYTES];
            in.get(start + 8 + NONCE_BYTES, keyIds);
            in.position(start + INTRO_BYTES);
            return new Intro(nonce, null, keyIds);
        }
        if (in.remaining() < SERVER_INTRO_BYTES) {
            return null;
        }
        byte[] proof = new byte[PROOF_BYTES];
        in.get(start + 8 + NONCE_BYTES, proof);
        in.position(start + SERVER_INTRO_BYTES);
        return new Intro(nonce, proof);
    }

    /**
     * Parses a hello (a client's, with its proof, when {@code fromClient}) from the start of {@code in} (in read
     * mode). Returns null when more bytes are needed; consumes the hello otherwise.
     */
    public static Hello decodeHello(ByteBuffer in, boolean fromClient) throws ProtocolException {
        return decodeHello(in, fromClient, null);
    }

    /**
     * {@link #decodeHello(ByteBuffer, boolean)}, where the peer is on this host when its host proof equals
     * {@code expectedHostProof} (never when that is null).
     */
    public static Hello decodeHello(ByteBuffer in, boolean fromClient, byte[] expectedHostProof)
            throws ProtocolException {
        if (in.remaining() < HELLO_BYTES + (fromClient ? PROOF_BYTES : 0)) {
            return null;
        }
        byte[] proof = null;
        if (fromClient) {
            proof = new byte[PROOF_BYTES];
            in.get(proof);
        }
        byte[] body = new byte[HELLO_BYTES];
        in.get(in.position(), body);
        int flags = in.getShort() & 0xFFFF;
        in.getShort();
        int connectionId = in.getInt();
        long tagSecret = in.getLong();
        int recvWindow = in.getInt();
        int recvUnit = in.getInt();
        byte[] hostProof = new byte[HOST_PROOF_BYTES];
        in.get(hostProof);
        int messageKey = in.getInt();
        byte[] ownerKey = new byte[OWNER_KEY_BYTES];
        in.get(ownerKey);
        if (connectionId == 0) {
            throw new ProtocolException("bad connection id in handshake: 0");
        }
        if (recvWindow < 1 || recvWindow > MAX_RECV_WINDOW) {
            throw new ProtocolException("bad receive window in handshake: " + Integer.toUnsignedString(recvWindow)
                    + " (1.." + MAX_RECV_WINDOW + ")");
        }
        if (recvUnit < MIN_RECV_UNIT || recvUnit > MAX_RECV_UNIT) {
            throw new ProtocolException("bad receive unit in handshake: " + Integer.toUnsignedString(recvUnit)
                    + " (" + MIN_RECV_UNIT + ".." + MAX_RECV_UNIT + ")");
        }
        boolean sameHost = expectedHostProof != null && MessageDigest.isEqual(hostProof, expectedHostProof);
        return new Hello(flags, connectionId, tagSecret, messageKey, recvWindow, recvUnit, hostProof, sameHost,
                ownerKey, proof, body, null);
    }

    /**
     * Parses an address message from the start of {@code in} (in read mode). Returns null when more bytes are
     * needed; consumes it otherwise. The caller makes room for {@link #addressCapacity()} bytes first: only a
     * trusted peer's address is read.
     */
    public static WorkerAddress decodeAddress(ByteBuffer in) throws ProtocolException {
        if (in.remaining() < ADDRESS_HEADER_BYTES) {
            return null;
        }
        int start = in.position();
        int length = in.getInt(start);
        if (length <= 0 || length > MAX_WORKER_ADDRESS) {
            throw new ProtocolException("bad worker address length in handshake: " + length);
        }
        if (in.remaining() < ADDRESS_HEADER_BYTES + length + ADDRESS_MAC_BYTES + OWNERSHIP_MAC_BYTES) {
            return null;
        }
        byte[] address = new byte[length];
        in.get(start + ADDRESS_HEADER_BYTES, address);
        byte[] mac = new byte[ADDRESS_MAC_BYTES];
        in.get(start + ADDRESS_HEADER_BYTES + length, mac);
        byte[] ownershipMac = new byte[OWNERSHIP_MAC_BYTES];
        in.get(start + ADDRESS_HEADER_BYTES + length + ADDRESS_MAC_BYTES, ownershipMac);
        in.position(start + ADDRESS_HEADER_BYTES + length + ADDRESS_MAC_BYTES + OWNERSHIP_MAC_BYTES);
        return new WorkerAddress(address, mac, ownershipMac);
    }

    /** A record saying that {@code messagesSent} messages precede it, ready to be written. */
    public static ByteBuffer encodeRecord(byte type, int messagesSent) {
        ByteBuffer record = ByteBuffer.allocate(RECORD_BYTES);
        record.put(type).putInt(messagesSent).flip();
        return record;
    }

    /** The low bits of a packed UCP worker address's first byte: its format version. */
    private static final int UCP_ADDRESS_VERSION_MASK = 0x0F;

    /**
     * Rejects a peer worker address whose format version differs from our own worker's. UCX 1.13
     * asserts (aborting the process) when it unpacks an address of an unknown version, so this
     * must be checked before the endpoint is created. It does not make a forged address safe:
     * only trusted peers should reach the port (see docs/security.md).
     */
    static void checkWorkerAddress(byte[] peerAddress, byte[] ownAddress) throws ProtocolException {
        int peerVersion = peerAddress[0] & UCP_ADDRESS_VERSION_MASK;
        int ownVersion = ownAddress[0] & UCP_ADDRESS_VERSION_MASK;
        if (peerVersion != ownVersion) {
            throw new ProtocolException("peer's UCX worker address has format version " + peerVersion
                    + ", this UCX uses " + ownVersion + " (different UCX releases, or not a UCX address)");
        }
    }

    /** Room for an address message: a worker address with its header and its MAC. */
    public static int addressCapacity() {
        return ADDRESS_HEADER_BYTES + MAX_WORKER_ADDRESS + ADDRESS_MAC_BYTES + OWNERSHIP_MAC_BYTES;
    }

    /** The key of the host proofs: this host's boot id. */
    static byte[] hostKey() {
        return BOOT_ID.clone();
    }

    private static byte[] readBootId() {
        try {
            String text = new String(Files.readAllBytes(Paths.get("/proc/sys/kernel/random/boot_id")),
                    StandardCharsets.US_ASCII).trim();
            return toBytes(UUID.fromString(text));
        } catch (IOException | IllegalArgumentException e) {
            logger.debug("No boot id; every peer is treated as remote (UCX peer error handling on)", e);
            return toBytes(UUID.randomUUID());
        }
    }

    private static byte[] toBytes(UUID uuid) {
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).array();
    }
}
