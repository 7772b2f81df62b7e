/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxNativeConnection;
import io.github.nettyucx.jni.UcxProcess;
import io.github.nettyucx.jni.UcxBytes;
import io.github.nettyucx.buffer.UcxMemoryRegistration;
import io.netty.buffer.ByteBuf;
import io.netty.util.internal.SystemPropertyUtil;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A connection's receive side: a ring of receive slots, one per sequence number in the window, read strictly in
 * sequence order (so receives can complete in any order), and the credits owed for the slots consumed.
 * <p>
 * Each receive is posted into a pooled, registered buffer of {@link UcxMemoryRegistration#receiveAllocator}: a
 * message of at least {@link #IN_PLACE_MIN_BYTES} goes up the pipeline in that buffer, and the slot gets a fresh
 * one; smaller messages are copied out and the buffer is posted again. The buffers stay alive until the native
 * connection is freed, since UCX may write into them until then.
 * <p>
 * A window holds no buffer while it is <em>parked</em> (ucx_park.c): from its creation until its first message,
 * and again once a whole {@link #PARK_IDLE_NANOS} passed without one (the worker's sweep, {@link #sweep}). Its
 * receives are then cancelled and their buffers go back to the pool; the peer keeps its credits, and what it sends
 * meanwhile is held natively until the receives are posted again, as soon as the connection's completions are
 * dispatched ({@link #wakeIfHeld}). So an idle connection holds no receive memory, while the window its hello
 * advertised stays real.
 */
public final class UcxReceiveWindow {
    /**
     * Payload bytes from which a received message is handed up in the buffer it arrived in rather
     * than copied (below it, a right-sized copy wastes less memory than a whole slot buffer).
     */
    static final int IN_PLACE_MIN_BYTES = Math.max(1,
            SystemPropertyUtil.getInt("io.github.nettyucx.receiveInPlaceBytes", 16 * 1024));
    /** Time without a message after which a connection parks; 0 or less: never. */
    public static final long PARK_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(
            SystemPropertyUtil.getLong("io.github.nettyucx.parkIdleMillis", 1000));

    private final UcxNativeConnection conn;
    private final int window;
    /** Bytes of a slot's buffer: a unit of payload plus the header in front of it. */
    private final int slotStride;
    /** Per receive slot: the buffer its receive is posted into, or null while none is. */
    private final ByteBuf[] buffers;
    private int slot;
    private int seq;
    private int offset;
    private int pendingCredits;
    private boolean parked;
    /** The sequence number at the worker's last sweep, and the sweeps since it last moved. */
    private int seqAtSweep = -1;
    private int quietSweeps;

    public UcxReceiveWindow(UcxNativeConnection conn, int window, int slotStride) {
        this.conn = conn;
        this.window = window;
        this.slotStride = slotStride;
        this.buffers = new ByteBuf[window];
    }

    /** Parks the fresh window, or, where connections never park, posts every receive. */
    public void start() {
        if (PARK_IDLE_NANOS <= 0 || !conn.park(0)) {
            postIdleSlots();
        } else {
            parked = true;
        }
    }

    public int window() {
        return window;
    }

    /** Messages fully read so far. */
    public int messagesReceived() {
        return seq;
    }

    /** True when the next message in sequence has arrived (or its receive failed), or a parked window woke. */
    public boolean hasReadable() {
        if (parked) {
            return woken();
        }
        int st = conn.recvState(slot);
        return st != UcxNative.RECV_POSTED && st != UcxNative.RECV_IDLE;
    }

    /**
     * Hands over the next message in the buffer it arrived in, when it has at least
     * {@link #IN_PLACE_MIN_BYTES} and at most {@code maxBytes} and nothing of it was read yet;
     * returns null otherwise (then use {@link #read}), also when no fresh buffer for the slot could
     * be allocated or the window is parked.
     */
    public ByteBuf readInPlace(int maxBytes) {
        int st = conn.recvState(slot);
        if (parked || st < IN_PLACE_MIN_BYTES || st > maxBytes || offset != 0) {
            return null;
        }
        ByteBuf fresh;
        try {
            fresh = UcxMemoryRegistration.receiveAllocator().directBuffer(slotStride, slotStride);
        } catch (OutOfMemoryError e) {
            return null;
        }
        ByteBuf message = buffers[slot];
        message.setIndex(UcxNative.HEADER_BYTES, UcxNative.HEADER_BYTES + st);
        buffers[slot] = fresh;
        consumeSlot();
        return message;
    }

    /**
     * Copies bytes of the next message(s) in sequence into {@code dst}, up to its writable bytes.
     * Returns the bytes copied, 0 when nothing has arrived.
     */
    public int read(ByteBuf dst) throws IOException {
        for (;;) {
            int st = nextState();
            if (st == UcxNative.RECV_POSTED || st == UcxNative.RECV_IDLE) {
                return 0;
            }
            if (st < 0) {
                throw new IOException("UCX receive failed: " + UcxProcess.statusString(st));
            }
            int n = Math.min(st - offset, dst.writableBytes());
            if (n > 0) {
                copyOut(buffers[slot], UcxNative.HEADER_BYTES + offset, dst, n);
                offset += n;
            }
            if (offset == st) {
                consumeSlot();
            }
            if (n > 0 || !dst.isWritable()) {
                return n;
            }
        }
    }

    /** Drops every message that has arrived (input shut down): the peer still gets its credits back. */
    public void discardReadable() throws IOException {
        for (int st = nextState(); st != UcxNative.RECV_POSTED && st != UcxNative.RECV_IDLE; st = nextState()) {
            if (st < 0) {
                throw new IOException("UCX receive failed: " + UcxProcess.statusString(st));
            }
            consumeSlot();
        }
    }

    /** The next slot's state, after posting the receives again if the parked window woke. */
    private int nextState() {
        if (parked && woken()) {
            unpark();
        }
        return conn.recvState(slot);
    }

    /** Appends {@code n} bytes at {@code offset} of {@code src} to {@code dst}, without allocating. */
    private static void copyOut(ByteBuf src, int offset, ByteBuf dst, int n) {
        int writerIndex = dst.writerIndex();
        UcxBytes.copy(src, offset, dst, writerIndex, n);
        dst.writerIndex(writerIndex + n);
    }

    private void consumeSlot() {
        post(slot, seq + window);
        seq++;
        slot = slot + 1 == window ? 0 : slot + 1;
        offset = 0;
        pendingCredits++;
    }

    private void post(int s, int sequence) {
        ByteBuf buffer = buffers[s];
        conn.postReceive(s, sequence, buffer.memoryAddress(), UcxMemoryRegistration.memoryHandleOf(buffer));
    }

    /** Credits owed to the peer: slots consumed and reposted since a message of ours last carried them. */
    public int pendingCredits() {
        return pendingCredits;
    }

    /** The pending credits were returned (or need no returning). */
    public void clearPendingCredits() {
        pendingCredits = 0;
    }

    // ---- parking ----

    /**
     * A parked window woke: the native side holds a message for it, or a receive it could not cancel (already
     * matched) finished.
     */
    private boolean woken() {
        return conn.held() > 0 || conn.recvState(slot) != UcxNative.RECV_IDLE;
    }

    /**
     * Posts the receive of every slot that has none, in sequence order from the next one to read, then ends the
     * parking: the native side gave each receive the message it held for that sequence number, if any.
     */
    private void unpark() {
        postIdleSlots();
        parked = false;
        quietSweeps = 0;
        conn.unpark();
    }

    private void postIdleSlots() {
        int s = slot;
        for (int k = 0; k < window; k++) {
            if (conn.recvState(s) == UcxNative.RECV_IDLE) {
                if (buffers[s] == null) {
                    buffers[s] = UcxMemoryRegistration.receiveAllocator().directBuffer(slotStride, slotStride);
                }
                post(s, seq + k);
            }
            s = s + 1 == window ? 0 : s + 1;
        }
    }

    /**
     * The worker's sweep, every half {@link #PARK_IDLE_NANOS}: parks the window when nothing arrived over two
     * sweeps and every receive is posted and empty (nothing waits to be read, no message is half read).
     */
    void sweep() {
        if (parked) {
            return;
        }
        boolean quiet = seq == seqAtSweep && offset == 0 && allPosted();
        seqAtSweep = seq;
        quietSweeps = quiet ? quietSweeps + 1 : 0;
        if (quietSweeps >= 2 && conn.park(seq)) {
            parked = true;
            releaseIdleBuffers();
        }
    }

    /**
     * Posts the receives again when the native side holds a message for the parked window, whether or not the
     * channel reads now: messages carry the credits their sender returns in their header, which count only once a
     * message is received, and a peer that waits for them must not wait on our reader. True when it woke.
     */
    public boolean wakeIfHeld() throws IOException {
        if (!parked || !woken()) {
            return false;
        }
        try {
            unpark();
        } catch (OutOfMemoryError e) {
            throw new IOException("no memory for the receive buffers of a connection that woke: " + e, e);
        }
        return true;
    }

    /** Whether the window is parked: it holds no receive buffer then (see the class comment). */
    boolean isParked() {
        return parked;
    }

    private boolean allPosted() {
        for (int s = 0; s < window; s++) {
            if (conn.recvState(s) != UcxNative.RECV_POSTED) {
                return false;
            }
        }
        return true;
    }

    /** Releases the buffers of the slots whose receives the parking cancelled. */
    private void releaseIdleBuffers() {
        for (int s = 0; s < window; s++) {
            if (buffers[s] != null && conn.recvState(s) == UcxNative.RECV_IDLE) {
                buffers[s].release();
                buffers[s] = null;
            }
        }
    }

    /**
     * Moves every buffer to {@code inUse}: the connection closes, and UCX may write into them until the native
     * connection is freed.
     */
    public void takeBuffers(List<ByteBuf> inUse) {
        for (int s = 0; s < window; s++) {
            if (buffers[s] != null) {
                inUse.add(buffers[s]);
                buffers[s] = null;
            }
        }
    }
}
