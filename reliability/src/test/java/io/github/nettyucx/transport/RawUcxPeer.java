/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

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
    static final int RECV_SLOTS = 8;
    static final int RECV_UNIT = 64 * 1024;
    static final int SEND_SLOTS = 4;
    /** Larger than the server's receive unit, so that oversized messages can be sent. */
    static final int SEND_UNIT = 256 * 1024;

    private final long worker;
    private final SocketChannel side;
    private final Conn main;
    private UcxHandshake.Hello serverHello;
    private int extraConnections;

    /** One native connection of this peer's worker: its endpoint goes to one connection id of the server. */
    final class Conn {
        final long conn;
        final long state;
        final long sendArea;
        final int id;
        /** Where the receives are posted; nothing reads them. Referenced until the worker is gone. */
        private final ByteBuffer recvArea = ByteBuffer.allocateDirect(RECV_SLOTS * RECV_UNIT);
        private int nextSlot;

        private Conn(int index) throws IOException {
            long[] out = new long[5];
            UcxNative.connCreate(worker, index, RECV_SLOTS, RECV_UNIT, SEND_SLOTS, SEND_UNIT, out);
            conn = out[0];
            state = out[1];
            sendArea = out[2];
            id = (int) out[3];
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

    /** Sends a valid hello, reads the server's and creates the endpoint to it. */
    RawUcxPeer handshake() throws IOException {
        writeSide(UcxHandshake.encodeHello(main.id, RECV_SLOTS, RECV_UNIT, UcxNative.workerAddress(worker)));
        serverHello = readHello();
        UcxNative.connConnect(main.conn, serverHello.workerAddress, serverHello.connectionId, true);
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

    /** Another endpoint to the same server worker, aimed at connection id {@code targetId} of the server. */
    Conn aimAt(int targetId) throws IOException {
        Conn conn = new Conn(++extraConnections);
        UcxNative.connConnect(conn.conn, serverHello.workerAddress, targetId, true);
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

    private UcxHandshake.Hello readHello() throws IOException {
        ByteBuffer in = ByteBuffer.allocate(UcxHandshake.helloCapacity());
        for (;;) {
            if (side.read(in) < 0) {
                throw new IOException("the server closed the side channel during the handshake");
            }
            in.flip();
            UcxHandshake.Hello hello = UcxHandshake.decodeHello(in);
            if (hello != null) {
                return hello;
            }
            in.compact();
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
