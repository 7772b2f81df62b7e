/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.github.nettyucx.jni.UcxBytes;
import io.github.nettyucx.jni.UcxFd;
import io.netty.util.internal.CleanableDirectBuffer;
import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A connection's TCP side channel: its socket's hello and records waiting to be written, and the bytes
 * read but not parsed yet. As a {@link UcxRecordLink} it carries the records itself, until the connection
 * turns plain TCP (the TCP data path, or a peer that does not speak netty-ucx), which takes what it left.
 * The socket belongs to the channel (and, once connected over UCX, to the native connection, which closes
 * it); this class only reads and writes it. The buffers are freed by {@link #release()} when the
 * channel closes, not left to the garbage collector: a busy server opens and closes connections
 * faster than the heap fills.
 */
public final class UcxSideChannel implements UcxRecordLink {
    /**
     * Room for the intros, hellos and records: what a stranger can make this side hold. A trusted peer's worker
     * address gets more room ({@link #makeRoomForAddress()}).
     */
    static final int INITIAL_BYTES = 256;

    private CleanableDirectBuffer outMemory = PlatformDependent.allocateDirect(INITIAL_BYTES);
    private ByteBuffer out = outMemory.buffer();
    private long outAddress = UcxBytes.address(out);
    private CleanableDirectBuffer inMemory = PlatformDependent.allocateDirect(INITIAL_BYTES);
    private ByteBuffer in = inMemory.buffer();
    private long inAddress = UcxBytes.address(in);

    private UcxFd fd = new UcxFd(-1);
    private boolean released;
    private boolean roomForAddressWanted;
    private boolean handshakeOver;

    public UcxSideChannel() {
        out.flip();
    }

    private void ensureNotReleased() throws IOException {
        if (released) {
            throw new IOException("side channel already closed");
        }
    }

    /** Frees both buffers; every later call fails with an IOException. */
    public void release() {
        if (!released) {
            released = true;
            outMemory.clean();
            inMemory.clean();
        }
    }

    /** Forgets what was queued and read: a client's connect starts over on a new socket. */
    public void reset() {
        handshakeOver = false;
        if (!released) {
            in.clear();
            out.clear();
            out.flip();
        }
    }

    /** The connected socket to read and write from now on. */
    public void attach(UcxFd fd) {
        this.fd = fd;
    }

    public void queue(ByteBuffer bytes) throws IOException {
        ensureNotReleased();
        out.compact();
        try {
            if (out.remaining() < bytes.remaining()) {
                growOutbound(out.position() + bytes.remaining());
            }
            out.put(bytes);
        } finally {
            out.flip();
        }
    }

    /** Makes room for the bytes queued (in write mode) and {@code needed} in all; only our own hello needs it. */
    private void growOutbound(int needed) throws IOException {
        if (needed > INITIAL_BYTES + UcxHandshake.addressCapacity()) {
            throw new IOException("side channel output overflow");
        }
        outMemory = moved(out, outMemory, needed);
        out = outMemory.buffer();
        outAddress = UcxBytes.address(out);
    }

    /**
     * A buffer of {@code capacity} bytes holding what {@code buffer} (in write mode) held, in write mode; the old
     * memory is freed.
     */
    private static CleanableDirectBuffer moved(ByteBuffer buffer, CleanableDirectBuffer memory, int capacity) {
        CleanableDirectBuffer bigger = PlatformDependent.allocateDirect(capacity);
        buffer.flip();
        bigger.buffer().put(buffer);
        memory.clean();
        return bigger;
    }

    /**
     * Makes room in the input for a worker address, which only a trusted peer sends: at the next
     * {@link #consumed()}, so that the buffer being parsed stays as it is. What the socket holds beyond the old
     * room is read at its next readiness (the loop's epoll set reports sockets as long as they have input).
     */
    public void makeRoomForAddress() {
        roomForAddressWanted = true;
    }

    /**
     * The handshake is over: only records (a few bytes each) come and go from now on, so the room an address took
     * is given back at the next {@link #consumed()} that leaves little enough in each buffer. An idle connection
     * would otherwise keep the address's room for its lifetime.
     */
    public void handshakeEnded() {
        handshakeOver = true;
    }

    /** The input in write mode (at {@link #consumed()}), back to its first size once the handshake is over. */
    private void shrinkInbound() {
        if (handshakeOver && !roomForAddressWanted && in.capacity() > INITIAL_BYTES && in.position() <= INITIAL_BYTES) {
            inMemory = moved(in, inMemory, INITIAL_BYTES);
            in = inMemory.buffer();
            inAddress = UcxBytes.address(in);
        }
    }

    /** The output (in read mode), back to its first size once the handshake is over. */
    private void shrinkOutbound() {
        if (handshakeOver && out.capacity() > INITIAL_BYTES && out.remaining() <= INITIAL_BYTES) {
            out.compact();
            outMemory = moved(out, outMemory, INITIAL_BYTES);
            out = outMemory.buffer();
            outAddress = UcxBytes.address(out);
            out.flip();
        }
    }

    private void growInbound() {
        roomForAddressWanted = false;
        int needed = INITIAL_BYTES + UcxHandshake.addressCapacity();
        if (released || in.capacity() >= needed) {
            return;
        }
        inMemory = moved(in, inMemory, needed);
        in = inMemory.buffer();
        inAddress = UcxBytes.address(in);
    }

    @Override
    public boolean sendShutdownOutput(int messagesSent) throws IOException {
        queue(UcxHandshake.encodeRecord(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, messagesSent));
        return flush();
    }

    @Override
    public void sendClose(int messagesSent, boolean reset) throws IOException {
        queue(UcxHandshake.encodeRecord(reset ? UcxHandshake.RECORD_RESET : UcxHandshake.RECORD_CLOSE,
                messagesSent));
        flush();
    }

    @Override
    public boolean receiveRecords() throws IOException {
        return fill();
    }

    /** Writes what is queued; returns true when nothing is left. */
    public boolean flush() throws IOException {
        ensureNotReleased();
        while (out.hasRemaining()) {
            int n = fd.write(outAddress + out.position(), out.remaining());
            if (n == 0) {
                return false;
            }
            out.position(out.position() + n);
        }
        shrinkOutbound();
        return true;
    }

    /**
     * Reads what the socket has into the input buffer. Returns false at end of stream.
     * Call {@link #inbound()} to parse, then {@link #consumed()}.
     */
    boolean fill() throws IOException {
        ensureNotReleased();
        for (;;) {
            if (!in.hasRemaining()) {
                return true;
            }
            int n = fd.read(inAddress + in.position(), in.remaining());
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
     * Takes the unparsed input (the side channel is in read mode, between {@link #inbound()} and {@link #consumed()}):
     * a copy in read mode, or null when there is none. For a connection that turned out to be plain TCP, whose
     * first bytes these are.
     */
    public ByteBuffer takeInbound() {
        return takeRemaining(in);
    }

    /**
     * Takes the output not written yet: a copy in read mode, or null when there is none. For a connection that turns
     * plain TCP after its hellos, whose last bytes may still wait for the socket.
     */
    public ByteBuffer takeOutbound() {
        return takeRemaining(out);
    }

    /** Moves what {@code buffer} (in read mode) has left into a heap copy in read mode; null when nothing is left. */
    private ByteBuffer takeRemaining(ByteBuffer buffer) {
        if (released || !buffer.hasRemaining()) {
            return null;
        }
        return ByteBuffer.allocate(buffer.remaining()).put(buffer).flip();
    }

    /** True when bytes were read and not parsed yet. */
    public boolean hasUnparsedInput() {
        return !released && in.position() > 0;
    }

    /** The unparsed input, in read mode. */
    public ByteBuffer inbound() {
        if (released) {
            return ByteBuffer.allocate(0);
        }
        in.flip();
        return in;
    }

    /** Keeps the unparsed rest for the next {@link #fill}. */
    public void consumed() {
        if (!released) {
            in.compact();
            if (roomForAddressWanted) {
                growInbound();
            }
            shrinkInbound();
            shrinkOutbound();
        }
    }
}
