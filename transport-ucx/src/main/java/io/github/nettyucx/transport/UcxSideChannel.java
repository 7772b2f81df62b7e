/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Buffers of a connection's TCP side channel: the hello and records waiting to be written, and
 * the bytes read but not parsed yet (on the TCP data path, the records it took off the socket).
 * The socket itself belongs to the channel. The buffers are freed by {@link #release()} when the
 * channel closes, not left to the garbage collector: a busy server opens and closes connections
 * faster than the heap fills.
 */
final class UcxSideChannel {
    private final ByteBuffer out = ByteBuffer.allocateDirect(UcxHandshake.helloCapacity());
    private final long outAddress = PlatformDependent.directBufferAddress(out);
    private final ByteBuffer in = ByteBuffer.allocateDirect(UcxHandshake.helloCapacity());
    private final long inAddress = PlatformDependent.directBufferAddress(in);

    private boolean released;

    UcxSideChannel() {
        out.flip();
    }

    private void ensureNotReleased() throws IOException {
        if (released) {
            throw new IOException("side channel already closed");
        }
    }

    /** Frees both buffers; every later call fails with an IOException. */
    void release() {
        if (!released) {
            released = true;
            PlatformDependent.freeDirectBuffer(out);
            PlatformDependent.freeDirectBuffer(in);
        }
    }

    void queue(ByteBuffer bytes) throws IOException {
        ensureNotReleased();
        out.compact();
        try {
            if (out.remaining() < bytes.remaining()) {
                throw new IOException("side channel output overflow");
            }
            out.put(bytes);
        } finally {
            out.flip();
        }
    }

    void queueRecord(byte type, int messagesSent) throws IOException {
        ByteBuffer record = ByteBuffer.allocate(UcxHandshake.RECORD_BYTES);
        record.put(type).putInt(messagesSent).flip();
        queue(record);
    }

    /** Writes what is queued; returns true when nothing is left. */
    boolean flush(int fd) throws IOException {
        ensureNotReleased();
        while (out.hasRemaining()) {
            int n = UcxNative.socketWrite(fd, outAddress + out.position(), out.remaining());
            if (n == 0) {
                return false;
            }
            out.position(out.position() + n);
        }
        return true;
    }

    /**
     * Reads what the socket has into the input buffer. Returns false at end of stream.
     * Call {@link #inbound()} to parse, then {@link #consumed()}.
     */
    boolean fill(int fd) throws IOException {
        ensureNotReleased();
        for (;;) {
            if (!in.hasRemaining()) {
                return true;
            }
            int n = UcxNative.socketRead(fd, inAddress + in.position(), in.remaining());
            if (n < 0) {
                return false;
            }
            if (n == 0) {
                return true;
            }
            in.position(in.position() + n);
        }
    }

    /**
     * Moves the connection {@code conn} to the TCP data path, which reads and writes the socket from now
     * on: it takes the input not parsed yet (call while the input is in read mode, after the peer's
     * hello) and the output not written yet.
     */
    void handOver(long conn, int fd) throws IOException {
        ensureNotReleased();
        UcxNative.connStreamStart(conn, fd, inAddress + in.position(), in.remaining(), outAddress + out.position(),
                out.remaining());
        in.position(in.limit());
        out.position(out.limit());
    }

    /** Like {@link #fill(int)}, from the records the TCP data path of {@code connection} took off the socket. */
    boolean fill(UcxConnection connection) throws IOException {
        ensureNotReleased();
        int n = connection.takeRecords(inAddress + in.position(), in.remaining());
        if (n < 0) {
            return false;
        }
        in.position(in.position() + n);
        return true;
    }

    /** The unparsed input, in read mode. */
    ByteBuffer inbound() {
        if (released) {
            return ByteBuffer.allocate(0);
        }
        in.flip();
        return in;
    }

    /** Keeps the unparsed rest for the next {@link #fill}. */
    void consumed() {
        if (!released) {
            in.compact();
        }
    }
}
