/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxDataPathPolicy;
import io.github.nettyucx.handshake.UcxHandshake;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.handshake.UcxTrustExchange;
import io.github.nettyucx.loop.UcxWorkerKey;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.SecureRandom;

/**
 * The client's half of the side-channel handshake (protocol v6, docs/protocol.md) done by hand on a blocking
 * {@link Socket}, step by step, so that a test can break any step: our intro, the server's intro (56 bytes), our
 * hello (76 bytes), the server's hello (44 bytes), and (only between peers that trust each other, for UCX) the
 * address messages. No secret: proofs are 32 zero bytes.
 */
final class RawHandshake {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The owner key of every raw client's hellos: a real one, which the server's X25519 accepts. */
    private static final UcxWorkerKey OWNER_KEY = new UcxWorkerKey();

    private final Socket socket;
    /** Our side of the challenges, and the MACs keyed with them. */
    private final UcxTrustExchange exchange = new UcxTrustExchange(UcxTrust.sameUser(), false);
    private final byte[] nonce = exchange.ownNonce();
    /** The server's challenge, once its intro arrived. */
    private byte[] serverNonce;
    /** The owner key of the server's hello, once it arrived. */
    private byte[] serverOwnerKey;

    RawHandshake(Socket socket) {
        this.socket = socket;
    }

    static byte[] newNonce() {
        byte[] nonce = new byte[UcxHandshake.NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /** The flags of a hello from a client that trusts the server: this process's, with TRUSTS. */
    static int trustingFlags() {
        return UcxDataPathPolicy.localFlags() | UcxDataPathPolicy.FLAG_TRUSTS;
    }

    /** A client's intro with a fresh nonce. */
    static ByteBuffer clientIntro() {
        return UcxHandshake.encodeClientIntro(newNonce());
    }

    /**
     * A client's hello with a zero proof and no host proof (as from another host): connection id 1, and the window,
     * unit and flags given.
     */
    static ByteBuffer clientHello(int flags, int window, int unit) {
        return UcxHandshake.encodeHello(flags, 1, 0, 0, window, unit, new byte[UcxHandshake.HOST_PROOF_BYTES],
                OWNER_KEY.publicKey(), new byte[UcxHandshake.PROOF_BYTES]);
    }

    /** A valid client hello of a client that trusts the server. */
    static ByteBuffer validClientHello() {
        return clientHello(trustingFlags(), 8, 65536);
    }

    /** Sends our intro and reads the server's. */
    UcxHandshake.Intro intro() throws IOException {
        write(UcxHandshake.encodeClientIntro(nonce));
        byte[] bytes = readExactly(UcxHandshake.SERVER_INTRO_BYTES);
        UcxHandshake.Intro intro = UcxHandshake.decodeIntro(ByteBuffer.wrap(bytes), true, nonce);
        serverNonce = intro == null ? null : intro.nonce;
        if (serverNonce != null) {
            exchange.peerNonce(serverNonce);
        }
        return intro;
    }

    /** Sends {@code hello} (a client's) and reads the server's hello. */
    UcxHandshake.Hello hello(ByteBuffer hello) throws IOException {
        write(hello);
        UcxHandshake.Hello server = UcxHandshake.decodeHello(ByteBuffer.wrap(readExactly(UcxHandshake.HELLO_BYTES)),
                false, serverNonce == null ? null : UcxTrustExchange.hostProof(true, nonce, serverNonce));
        serverOwnerKey = server == null ? null : server.ownerKey;
        return server;
    }

    /** The server's address message: its worker address, and the MAC after it (zeros: no secret here). */
    UcxHandshake.WorkerAddress readAddress() throws IOException {
        int length = ByteBuffer.wrap(readExactly(UcxHandshake.ADDRESS_HEADER_BYTES)).getInt();
        if (length <= 0 || length > UcxHandshake.MAX_WORKER_ADDRESS) {
            throw new IOException("bad address length from the server: " + length);
        }
        byte[] address = readExactly(length);
        return new UcxHandshake.WorkerAddress(address, readExactly(UcxHandshake.ADDRESS_MAC_BYTES),
                readExactly(UcxHandshake.OWNERSHIP_MAC_BYTES));
    }

    /**
     * Intros, a valid trusting hello, the server's hello and address: the server now waits for our address
     * message. Fails unless the server chose UCX.
     */
    UcxHandshake.Hello upToOurAddress() throws IOException {
        intro();
        // A client of this host: its hello proves it (the same-user rule asks for that).
        ByteBuffer ours = UcxHandshake.encodeHello(trustingFlags(), 1, 0, 0, 8, 65536,
                UcxTrustExchange.hostProof(false, nonce, serverNonce), OWNER_KEY.publicKey(),
                new byte[UcxHandshake.PROOF_BYTES]);
        int flags = ours.getShort(UcxHandshake.PROOF_BYTES) & 0xFFFF;
        UcxHandshake.Hello hello = hello(ours);
        UcxDataPathPolicy.Choice choice = UcxDataPathPolicy.choose(flags, hello.flags, hello.sameHost());
        if (choice != UcxDataPathPolicy.Choice.UCX) {
            throw new IOException("the server chose the " + choice + " data path, not UCX (flags " + hello.flags
                    + ")");
        }
        return hello.withAddress(readAddress());
    }

    /**
     * Our address message for {@code workerAddress} (any bytes), with no shared key's MAC and a valid proof that we
     * hold our owner key: what a trusted peer sends, so that the server goes on to read the address itself.
     */
    ByteBuffer addressMessage(byte[] workerAddress) throws IOException {
        return UcxHandshake.encodeAddress(workerAddress, new byte[UcxHandshake.ADDRESS_MAC_BYTES],
                exchange.ownershipMac(OWNER_KEY.secretWith(serverOwnerKey), workerAddress));
    }

    void write(ByteBuffer bytes) throws IOException {
        byte[] array = new byte[bytes.remaining()];
        bytes.get(array);
        write(array, array.length);
    }

    /** Writes the first {@code length} bytes of {@code bytes}. */
    void write(byte[] bytes, int length) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes, 0, length);
        out.flush();
    }

    private byte[] readExactly(int length) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException("the server ended the connection after " + bytes.length + " of " + length
                    + " bytes");
        }
        return bytes;
    }
}
