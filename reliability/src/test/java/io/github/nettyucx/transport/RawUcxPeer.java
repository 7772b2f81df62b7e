/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxDataPathPolicy;
import io.github.nettyucx.handshake.UcxHandshake;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.handshake.UcxTrustExchange;
import io.github.nettyucx.loop.UcxWorkerKey;
import io.github.nettyucx.jni.UcxNative;
import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * A peer that speaks the transport's protocol by hand, to break it on purpose: it drives a UCP worker of its
 * own through {@link UcxNative} from the calling thread (no event loop), does the side-channel handshake over
 * a plain blocking socket, and then sends tagged messages with whatever length, sequence number, credits and
 * target connection id a test asks for.
 */
final class RawUcxPeer implements AutoCloseable {
    /** The owner key this peer's hellos name and whose ownership it proves. */
    private final UcxWorkerKey ownerKey = new UcxWorkerKey();
    static final int RECV_SLOTS = 8;
    static final int RECV_UNIT = 64 * 1024;
    static final int SEND_SLOTS = 4;
    /** Larger than the server's receive unit, so that oversized messages can be sent. */
    static final int SEND_UNIT = 256 * 1024;

    private final long worker;
    private final SocketChannel side;
    /** What the server sent and the handshake did not parse yet. */
    private final ByteBuffer in = ByteBuffer.allocate(UcxHandshake.addressCapacity() + 1024);
    private final Conn main;
    private UcxHandshake.Hello serverHello;
    private int extraConnections;

    /** One native connection of this peer's worker: its endpoint goes to one connection id of the server. */
    final class Conn {
        final long conn;
        final long state;
        final long sendArea;
        final int id;
        /** The rest of the tags this connection receives with, told to the server in the hello. */
        final long tagSecret;
        /** What the header of each message to this connection must carry, told to the server in the hello. */
        final int messageKey;
        /** Where the receives are posted; nothing reads them. Referenced until the worker is gone. */
        private final ByteBuffer recvArea = ByteBuffer.allocateDirect(RECV_SLOTS * RECV_UNIT);
        private int nextSlot;

        private Conn(int index) throws IOException {
            long[] out = new long[UcxNative.CREATED_WORDS];
            UcxNative.connCreate(worker, index, RECV_SLOTS, RECV_UNIT, SEND_SLOTS, SEND_UNIT, out);
            conn = out[UcxNative.CREATED_CONN];
            state = out[UcxNative.CREATED_STATE];
            sendArea = out[UcxNative.CREATED_SEND_AREA];
            id = (int) out[UcxNative.CREATED_ID];
            tagSecret = out[UcxNative.CREATED_TAG_SECRET];
            messageKey = (int) out[UcxNative.CREATED_MESSAGE_KEY];
            long recvAddress = PlatformDependent.directBufferAddress(recvArea);
            for (int slot = 0; slot < RECV_SLOTS; slot++) {
                UcxNative.connPostRecv(conn, slot, slot, recvAddress + (long) slot * RECV_UNIT, 0);
            }
        }

        /**
         * Sends a message of {@code payload} bytes (filled with {@code fill}) with sequence number {@code seq}
         * and {@code credits} in its header. A payload of -4 makes a message of zero bytes, shorter than the
         * header (the native send adds the header length to the payload length).
         */
        void send(int payload, int seq, int credits, byte fill) throws IOException {
            int slot = nextSlot;
            nextSlot = (nextSlot + 1) % SEND_SLOTS;
            awaitSendSlot(slot);
            if (payload > 0) {
                PlatformDependent.setMemory(sendArea + (long) slot * SEND_UNIT + UcxNative.HEADER_BYTES, payload, fill);
            }
            int rc = UcxNative.connSend(conn, slot, payload, seq, credits);
            if (rc < 0) {
                throw new IOException("send failed: " + UcxNative.statusString(rc));
            }
            progress(5);
        }

        /** Sends {@code bytes} as one message. */
        void send(byte[] bytes, int seq, int credits) throws IOException {
            int slot = nextSlot;
            nextSlot = (nextSlot + 1) % SEND_SLOTS;
            awaitSendSlot(slot);
            PlatformDependent.copyMemory(bytes, 0, sendArea + (long) slot * SEND_UNIT + UcxNative.HEADER_BYTES,
                    bytes.length);
            int rc = UcxNative.connSend(conn, slot, bytes.length, seq, credits);
            if (rc < 0) {
                throw new IOException("send failed: " + UcxNative.statusString(rc));
            }
            progress(5);
        }

        private void awaitSendSlot(int slot) throws IOException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sendState(slot) != UcxNative.SEND_FREE) {
                if (sendState(slot) < 0) {
                    throw new IOException("send failed: " + UcxNative.statusString(sendState(slot)));
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("send slot " + slot + " still busy after 10 s");
                }
                UcxNative.workerProgress(worker);
            }
        }

        private int sendState(int slot) {
            return PlatformDependent.getInt(state + 4L * (UcxNative.STATE_HEADER_WORDS + RECV_SLOTS + slot));
        }

        /** The error the endpoint failed with (a ucs_status_t), or 0. */
        int endpointError() {
            return PlatformDependent.getInt(state + 4L * UcxNative.STATE_ERROR);
        }
    }

    private RawUcxPeer(InetSocketAddress server) throws IOException {
        worker = UcxNative.workerCreate(64);
        Conn created = null;
        SocketChannel socket = null;
        try {
            created = new Conn(0);
            socket = SocketChannel.open();
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            socket.connect(server);
        } catch (IOException | RuntimeException e) {
            if (socket != null) {
                socket.close();
            }
            UcxNative.workerDestroy(worker);
            throw e;
        }
        main = created;
        side = socket;
    }

    /** Connects the side channel to {@code server}; call {@link #handshake()} next. */
    static RawUcxPeer connect(InetSocketAddress server) throws IOException {
        return new RawUcxPeer(server);
    }

    /**
     * The v6 handshake of a client that trusts the server (docs/protocol.md): our intro, the server's intro, our
     * hello (no secret: 32 zero bytes of proof; flags {@link UcxDataPathPolicy#localFlags()} with
     * {@link UcxDataPathPolicy#FLAG_TRUSTS}), the server's hello, then, where both chose UCX, the server's worker
     * address and ours; then the endpoint to the server. Fails when the server did not choose UCX (it does not
     * trust this process, or the TCP data path was chosen): this peer speaks UCX only.
     */
    RawUcxPeer handshake() throws IOException {
        return handshake(address -> address, true);
    }

    /** What this peer sends as its worker address, given its real one. */
    interface AddressRewriter {
        byte[] rewrite(byte[] address) throws IOException;
    }

    /**
     * {@link #handshake()}, but sending {@code rewriter}'s version of this peer's worker address (a forged one),
     * and creating the endpoint to the server only when {@code connectEndpoint} says so.
     */
    RawUcxPeer handshake(AddressRewriter rewriter, boolean connectEndpoint) throws IOException {
        return handshake(rewriter, connectEndpoint, ownerKey.publicKey());
    }

    /**
     * {@link #handshake(AddressRewriter, boolean)}, naming {@code claimedOwnerKey} as its worker's owner key in its
     * hello (another worker's, say), though it proves ownership with its own key: a claim the server must refuse
     * unless the two are the same.
     */
    RawUcxPeer handshake(AddressRewriter rewriter, boolean connectEndpoint, byte[] claimedOwnerKey)
            throws IOException {
        UcxTrustExchange exchange = new UcxTrustExchange(UcxTrust.sameUser(), false);
        byte[] nonce = exchange.ownNonce();
        writeSide(UcxHandshake.encodeClientIntro(nonce));
        UcxHandshake.Intro intro = read(buffer -> UcxHandshake.decodeIntro(buffer, true, nonce));
        exchange.peerNonce(intro.nonce);
        int flags = RawHandshake.trustingFlags();
        writeSide(UcxHandshake.encodeHello(flags, main.id, main.tagSecret, main.messageKey, RECV_SLOTS, RECV_UNIT,
                UcxTrustExchange.hostProof(false, nonce, intro.nonce), claimedOwnerKey,
                new byte[UcxHandshake.PROOF_BYTES]));
        UcxHandshake.Hello hello = read(buffer -> UcxHandshake.decodeHello(buffer, false,
                UcxTrustExchange.hostProof(true, nonce, intro.nonce)));
        UcxDataPathPolicy.Choice choice = UcxDataPathPolicy.choose(flags, hello.flags, hello.sameHost());
        if (choice != UcxDataPathPolicy.Choice.UCX) {
            throw new IOException("the server chose the " + choice + " data path (its flags " + hello.flags
                    + "), not UCX: does it trust this process?");
        }
        serverHello = hello.withAddress(read(UcxHandshake::decodeAddress));
        byte[] address = rewriter.rewrite(UcxNative.workerAddress(worker));
        writeSide(UcxHandshake.encodeAddress(address, new byte[UcxHandshake.ADDRESS_MAC_BYTES],
                exchange.ownershipMac(ownerKey.secretWith(serverHello.ownerKey), address)));
        if (!connectEndpoint) {
            return this;
        }
        UcxNative.connConnect(main.conn, serverHello.workerAddress, serverHello.ownerKey, serverHello.connectionId,
                serverHello.tagSecret, serverHello.messageKey, true);
        progress(20);
        return this;
    }

    /** The server's hello (its connection id and worker address). */
    UcxHandshake.Hello serverHello() {
        return serverHello;
    }

    /** The connection of the handshake. */
    Conn main() {
        return main;
    }

    /**
     * Another endpoint to the same server worker, aimed at connection id {@code targetId} of the server. Its tag
     * secret and message key are not known to this peer: it uses those of its own connection, real ones of the
     * server's.
     */
    Conn aimAt(int targetId) throws IOException {
        return aimAt(targetId, serverHello.tagSecret, serverHello.messageKey);
    }

    /** Another endpoint to the same server worker, sending with the tag and header key given. */
    Conn aimAt(int targetId, long tagSecret, int messageKey) throws IOException {
        Conn conn = new Conn(++extraConnections);
        UcxNative.connConnect(conn.conn, serverHello.workerAddress, serverHello.ownerKey, targetId, tagSecret,
                messageKey, true);
        progress(20);
        return conn;
    }

    /** Writes raw bytes to the side channel. */
    void writeSide(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            side.write(bytes);
        }
    }

    /** A side-channel record: type and message count. */
    void writeRecord(byte type, int messages) throws IOException {
        ByteBuffer record = ByteBuffer.allocate(UcxHandshake.RECORD_BYTES);
        record.put(type).putInt(messages).flip();
        writeSide(record);
    }

    /** Something the server sends in its handshake: null while more bytes are needed. */
    private interface Decoder<T> {
        T decode(ByteBuffer in) throws IOException;
    }

    /** Reads from the side channel until {@code decoder} has what it parses; the bytes after it stay for later. */
    private <T> T read(Decoder<T> decoder) throws IOException {
        for (;;) {
            in.flip();
            T decoded;
            try {
                decoded = decoder.decode(in);
            } finally {
                in.compact();
            }
            if (decoded != null) {
                return decoded;
            }
            if (side.read(in) < 0) {
                throw new IOException("the server closed the side channel during the handshake");
            }
        }
    }

    /** Makes UCX progress for about {@code millis}. */
    void progress(long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        do {
            UcxNative.workerProgress(worker);
        } while (System.nanoTime() < until);
    }

    /**
     * Waits up to {@code seconds} for the server to end the side channel (end of stream or reset), making UCX
     * progress meanwhile; returns whether it did.
     */
    boolean awaitClosedByServer(long seconds) throws IOException {
        side.configureBlocking(false);
        ByteBuffer discard = ByteBuffer.allocate(4096);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            try {
                discard.clear();
                if (side.read(discard) < 0) {
                    return true;
                }
            } catch (IOException e) {
                return true; // reset
            }
            progress(10);
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        side.close();
        UcxNative.workerDestroy(worker);
    }
}
