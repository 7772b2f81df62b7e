/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.UUID;

/**
 * The hello each side sends first on the side channel, and the records that follow it.
 * <pre>
 * hello:  magic u32 | version u16 | flags u16 | connection id u32 | receive window u32 |
 *         receive unit u32 | boot id 16 bytes | worker address length u32 | worker address
 * record: type u8 ('S' = output shut down, 'C' = closed, 'R' = closed with a reset) | messages sent before it u32
 * </pre>
 * Integers are big endian. The flags are {@link UcxDataPathPolicy}'s. Everything after the hello is a
 * stream of records, or, on the TCP data path, of frames that carry data and records ({@code ucx_stream.c}).
 */
final class UcxHandshake {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxHandshake.class);
    static final int MAGIC = 0x4E554358; // "NUCX"
    /**
     * 3: a server answers with its hello only once the client's magic arrived (it may be a plain TCP client);
     * a server of version 2 answered at once, so a client of version 2 would wait for it in vain. (2 added the
     * reset record {@link #RECORD_RESET}.)
     */
    static final short VERSION = 3;
    static final int HELLO_HEADER_BYTES = 40;
    static final int MAX_WORKER_ADDRESS = 64 * 1024;
    static final int RECORD_BYTES = 5;
    static final byte RECORD_SHUTDOWN_OUTPUT = 'S';
    static final byte RECORD_CLOSE = 'C';
    /** Closed with {@code SO_LINGER} 0: as {@link #RECORD_CLOSE}, and writes to this side fail as a reset. */
    static final byte RECORD_RESET = 'R';

    /** Same boot id means same host: logged, so that one can tell why UCX chose shared memory. */
    private static final byte[] BOOT_ID = readBootId();
    private static final String ERROR_HANDLING = SystemPropertyUtil.get(
            "io.github.nettyucx.peerErrorHandling", "always").toLowerCase(Locale.ROOT);

    private UcxHandshake() {
    }

    /** The peer's hello, as received. */
    static final class Hello {
        final int flags;
        final int connectionId;
        final int recvWindow;
        final int recvUnit;
        final byte[] bootId;
        final byte[] workerAddress;

        Hello(int flags, int connectionId, int recvWindow, int recvUnit, byte[] bootId, byte[] workerAddress) {
            this.flags = flags;
            this.connectionId = connectionId;
            this.recvWindow = recvWindow;
            this.recvUnit = recvUnit;
            this.bootId = bootId;
            this.workerAddress = workerAddress;
        }

        boolean sameHost() {
            return java.util.Arrays.equals(bootId, BOOT_ID);
        }

        /**
         * UCX peer error handling for the endpoint to this peer: on unless switched off with
         * {@code -Dio.github.nettyucx.peerErrorHandling=never}. Without it, UCX 1.13 may use cma for
         * large messages between processes on one host, and aborts this process if the peer dies
         * in the middle of such a copy.
         */
        boolean peerErrorHandling() {
            return !"never".equals(ERROR_HANDLING);
        }
    }

    static ByteBuffer encodeHello(int connectionId, int recvWindow, int recvUnit, byte[] workerAddress) {
        return encodeHello(UcxDataPathPolicy.localFlags(), connectionId, recvWindow, recvUnit, workerAddress);
    }

    static ByteBuffer encodeHello(int flags, int connectionId, int recvWindow, int recvUnit, byte[] workerAddress) {
        ByteBuffer hello = ByteBuffer.allocate(HELLO_HEADER_BYTES + workerAddress.length);
        hello.putInt(MAGIC).putShort(VERSION).putShort((short) flags).putInt(connectionId).putInt(recvWindow)
                .putInt(recvUnit).put(BOOT_ID).putInt(workerAddress.length).put(workerAddress);
        hello.flip();
        return hello;
    }

    /** The hello's first bytes, which a client sends ahead of the rest. */
    static ByteBuffer magic() {
        return ByteBuffer.allocate(Integer.BYTES).putInt(0, MAGIC);
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
     * Parses a hello from the start of {@code in} (in read mode). Returns null when more bytes are
     * needed; consumes the hello otherwise.
     */
    static Hello decodeHello(ByteBuffer in) throws ProtocolException {
        if (in.remaining() < 8) {
            return null;
        }
        int start = in.position();
        int magic = in.getInt(start);
        short version = in.getShort(start + 4);
        if (magic != MAGIC) {
            throw new ProtocolException("not a netty-ucx peer (bad handshake magic 0x" + magicSeen(in) + ")");
        }
        if (version != VERSION) {
            throw new ProtocolException("unsupported netty-ucx protocol version " + version + " (this side speaks "
                    + VERSION + ")");
        }
        if (in.remaining() < HELLO_HEADER_BYTES) {
            return null;
        }
        int addressLength = in.getInt(start + HELLO_HEADER_BYTES - 4);
        if (addressLength <= 0 || addressLength > MAX_WORKER_ADDRESS) {
            throw new ProtocolException("bad worker address length in handshake: " + addressLength);
        }
        if (in.remaining() < HELLO_HEADER_BYTES + addressLength) {
            return null;
        }
        int flags = in.getShort(start + 6) & 0xFFFF;
        in.position(start + 8);
        int connectionId = in.getInt();
        int recvWindow = in.getInt();
        int recvUnit = in.getInt();
        if (recvWindow <= 0 || recvUnit <= 0) {
            throw new ProtocolException("bad receive window in handshake: " + recvWindow + " x " + recvUnit);
        }
        byte[] bootId = new byte[16];
        in.get(bootId);
        in.getInt();
        byte[] address = new byte[addressLength];
        in.get(address);
        return new Hello(flags, connectionId, recvWindow, recvUnit, bootId, address);
    }

    /** A record saying that {@code messagesSent} messages precede it, ready to be written. */
    static ByteBuffer encodeRecord(byte type, int messagesSent) {
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

    static int helloCapacity() {
        return HELLO_HEADER_BYTES + MAX_WORKER_ADDRESS;
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
