/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.github.nettyucx.loop.UcxReceiveWindow;
import io.github.nettyucx.loop.UcxWorker;
import io.github.nettyucx.jni.UcxBytes;
import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxNativeConnection;
import io.github.nettyucx.jni.UcxProcess;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The connection of one channel, over its native connection ({@link UcxNativeConnection}, which it owns): its
 * receive window ({@link UcxReceiveWindow}) and send slots that flushed bytes are gathered into, one message each.
 * It is created before the peer's hello (whose window it advertises) and does not know how its messages travel:
 * the data path ({@link UcxLink}) chosen at the hello connects it, sends through it and applies flow control. Used
 * on the event loop only.
 * <p>
 * A send is one message: the header (credits returned), then the flushed bytes. Small pieces are copied
 * into the slot; direct buffers from the data path's in-place threshold go as I/O vector entries over
 * their own memory and stay retained until the send has finished (after a close, until the worker
 * reports the native connection freed: {@link UcxWorker#holdUntilFreed}).
 * <p>
 * A {@link FileRegion} is read into the slot, after whatever buffers came before it in the same message, a
 * slot's worth at a time, so a file of any size costs no memory beyond the slots: a {@link DefaultFileRegion}'s
 * file with positioned reads straight into the slot ({@link DefaultFileRegionReader}), any other region through
 * its {@link FileRegion#transferTo} into a {@link WritableByteChannel} over the slot's memory ({@link UcxSlotChannel}).
 */
public final class UcxConnection {
    private final UcxWorker worker;
    private final int index;
    private final UcxNativeConnection conn;
    private final UcxReceiveWindow receives;
    private final int recvUnit;
    /** Bytes between receive (and send) slots: a unit of payload plus the header in front of it. */
    private final int slotStride;
    private final int sendSlots;
    private final int sendUnit;
    /** The send slots' bytes, which copies into a message go to (and file regions are read into). */
    private final ByteBuffer sendArea;
    /** Gathers a message into a send slot; keeps the buffers each slot's send reads in place. */
    private final UcxSendGatherer gatherer;
    /** What FileRegions write into; created with the connection's first region. */
    private UcxSlotChannel slotChannel;

    private int sendSlot;
    private int sendSeq;
    private boolean connected;
    private boolean closed;

    private UcxConnection(UcxWorker worker, int index, UcxNativeConnection conn, int recvWindow, int recvUnit,
            int sendSlots) {
        this.worker = worker;
        this.index = index;
        this.conn = conn;
        this.recvUnit = recvUnit;
        this.sendSlots = sendSlots;
        this.sendUnit = recvUnit;
        this.slotStride = recvUnit + UcxNative.HEADER_BYTES;
        this.receives = new UcxReceiveWindow(conn, recvWindow, slotStride);
        int sendStride = conn.sendStride();
        this.sendArea = UcxBytes.words(conn.sendAreaAddress(), sendSlots * sendStride);
        this.gatherer = new UcxSendGatherer(sendArea, conn.sendAreaAddress(), sendStride, sendSlots);
    }

    /**
     * Allocates the slots; the receive window starts parked, so the window the hello advertises is real without a
     * buffer per slot (see {@link UcxReceiveWindow}). A slot holds a whole unit of payload after the header, so a
     * write of exactly one unit (64 KiB by default) travels as one message.
     */
    public static UcxConnection create(UcxWorker worker, int index, int recvWindow, int recvUnit, int sendSlots)
            throws IOException {
        long stride = (long) recvUnit + UcxNative.HEADER_BYTES;
        if (recvWindow * stride > Integer.MAX_VALUE || sendSlots * stride > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("UCX slot areas over 2 GiB: " + recvWindow + " x " + recvUnit);
        }
        UcxNativeConnection conn = UcxNativeConnection.create(worker.nativeWorker(), index, recvWindow, sendSlots,
                (int) stride);
        UcxConnection connection = null;
        try {
            connection = new UcxConnection(worker, index, conn, recvWindow, recvUnit, sendSlots);
            connection.receives.start();
            return connection;
        } catch (Throwable t) {
            // Receives may be posted into buffers: they go when the native connection does.
            List<ByteBuf> posted = new ArrayList<>();
            if (connection != null) {
                connection.receives.takeBuffers(posted);
            }
            worker.holdUntilFreed(conn.id(), posted);
            conn.close(-1, true);
            throw t;
        }
    }

    public long tagSecret() {
        return conn.tagSecret();
    }

    public int messageKey() {
        return conn.messageKey();
    }

    public int id() {
        return conn.id();
    }

    public int recvWindow() {
        return receives.window();
    }

    public int recvUnit() {
        return recvUnit;
    }

    /**
     * Returns {@code credits} to the peer in a control message: {@link UcxNativeConnection#sendCredits}'s result,
     * CREDITS_BUSY while the last one is in flight; throws when it failed.
     */
    int sendCredits(int credits) throws IOException {
        int rc = conn.sendCredits(credits);
        if (rc < 0) {
            throw new IOException("UCX credit message failed: " + UcxProcess.statusString(rc));
        }
        if (rc != UcxNative.CREDITS_BUSY) {
            worker.countStreamMark();
        }
        return rc;
    }

    /** A flush stopped because the peer had returned no credits: it reads slower than this end sends. */
    void creditStalled() {
        worker.countStreamMark();
    }

    /** Bytes one message carries at most: our unit, unless the peer receives less ({@code peerRecvUnit}). */
    int sendCapacity(int peerRecvUnit) {
        return Math.min(sendUnit, peerRecvUnit);
    }

    /**
     * Creates the UCX endpoint to the peer's worker (its address and owner key, and what its hello said of its
     * connection): messages travel as tagged messages from now on.
     */
    void connectEndpoint(byte[] workerAddress, byte[] ownerKey, int connectionId, long tagSecret, int messageKey,
            boolean peerErrorHandling) throws IOException {
        conn.connect(workerAddress, ownerKey, connectionId, tagSecret, messageKey, peerErrorHandling);
        connected = true;
        worker.sweepWhenIdle(index, receives);
    }

    public boolean isConnected() {
        return connected && !closed;
    }

    /** Messages sent so far: the sequence number the peer's input ends at when we shut down output. */
    public int messagesSent() {
        return sendSeq;
    }

    /** Messages fully read so far. */
    public int messagesReceived() {
        return receives.messagesReceived();
    }

    /** Re-enables completion notifications; call before looking at the state. */
    public void clearNotified() {
        conn.clearNotified();
    }

    /** The ucs_status_t the endpoint failed with, or 0. */
    public int endpointError() {
        return conn.endpointError();
    }

    // ---- receive: the window ----

    public boolean hasReadable() {
        return receives.hasReadable();
    }

    /** A parked receive window that has a message waiting posts its receives ({@link UcxReceiveWindow#wakeIfHeld}). */
    public void wakeIfHeld() throws IOException {
        if (receives.wakeIfHeld()) {
            worker.windowWoke();
        }
    }

    ByteBuf readInPlace(int maxBytes) {
        ByteBuf message = receives.readInPlace(maxBytes);
        if (message != null) {
            worker.countReceived(message.readableBytes());
        }
        return message;
    }

    int read(ByteBuf dst) throws IOException {
        int n = receives.read(dst);
        worker.countReceived(n);
        return n;
    }

    void discardReadable() throws IOException {
        receives.discardReadable();
    }

    /** Credits owed to the peer: slots consumed and reposted since a message of ours last carried them. */
    int pendingCredits() {
        return receives.pendingCredits();
    }

    /** The pending credits were returned (or need no returning). */
    void clearPendingCredits() {
        receives.clearPendingCredits();
    }

    // ---- send ----

    /** True once UCX has finished setting up the endpoint; until then sends are contiguous copies. */
    public boolean wiredUp() {
        return conn.wiredUp();
    }

    /** Credits the peer has returned so far, counted natively from the headers and control messages. */
    int creditsReceived() {
        return conn.creditsReceived();
    }

    /** True when the next send slot is free (and the connection is up); throws when its last send failed. */
    boolean sendSlotFree() throws IOException {
        if (!isConnected()) {
            return false;
        }
        int st = conn.sendState(sendSlot);
        if (st < 0) {
            throw new IOException("UCX send failed: " + UcxProcess.statusString(st));
        }
        return st == UcxNative.SEND_FREE;
    }

    /**
     * Gathers flushed buffers of {@code in} into one message of at most {@code capacity} bytes in the next
     * send slot, sends it, and removes what it took from {@code in}. Buffers of at least
     * {@code inPlaceMinBytes} with a memory address are sent from their own memory once the endpoint is
     * wired up. A {@link FileRegion} reached with room left in the message fills that room
     * ({@link #sendWithRegion}). Call only when {@link #sendSlotFree()} and the data path's flow control allow.
     * Returns false when nothing could be sent because a FileRegion yielded no bytes (it may later).
     */
    boolean sendNext(ChannelOutboundBuffer in, int capacity, int inPlaceMinBytes) throws Exception {
        gatherer.releaseHeld(sendSlot);
        gatherer.reset(sendSlot, capacity, wiredUp() ? inPlaceMinBytes : Integer.MAX_VALUE);
        in.forEachFlushedMessage(gatherer);
        FileRegion region = gatherer.region;
        if (region != null) {
            return sendWithRegion(in, region);
        }
        int length = gatherer.filled;
        if (length > 0) {
            send(length);
        }
        in.removeBytes(length);
        return true;
    }

    /**
     * Fills the rest of the message from {@code region}, which follows the gathered buffers in {@code in}, sends
     * it, removes the buffers, reports the region's progress, and removes the region once it is transferred.
     * When the region fails to read, what the message holds still goes (it precedes the failure in the stream)
     * and the failure is thrown: the channel then fails the region's write and those after it.
     */
    private boolean sendWithRegion(ChannelOutboundBuffer in, FileRegion region) throws Exception {
        int gathered = gatherer.filled;
        long reported = 0;
        Throwable failure = null;
        UcxSlotChannel target = slotChannel();
        target.reset(gatherer.nextCopyOffset(), gatherer.room());
        boolean fromFile = DefaultFileRegionReader.accepts(region);
        try {
            while (target.hasRoom() && region.transferred() < region.count()) {
                long n = fromFile ? target.readFrom((DefaultFileRegion) region)
                        : region.transferTo(target, region.transferred());
                if (n <= 0) {
                    break;
                }
                reported += n;
            }
        } catch (Throwable t) {
            failure = t;
        }
        gatherer.appendCopied(target.written());
        int length = gatherer.filled;
        if (length > 0) {
            send(length);
        }
        in.removeBytes(gathered);
        if (reported > 0) {
            in.progress(reported);
        }
        if (failure != null) {
            PlatformDependent.throwException(failure);
        }
        boolean done = region.transferred() >= region.count();
        if (done) {
            in.remove();
        }
        return done || length > 0 || reported > 0;
    }

    private UcxSlotChannel slotChannel() {
        UcxSlotChannel channel = slotChannel;
        if (channel == null) {
            // Its own view: it moves position and limit, which sendArea's absolute copies must not see.
            channel = new UcxSlotChannel(sendArea.duplicate());
            slotChannel = channel;
        }
        return channel;
    }

    private void send(int length) throws IOException {
        int slot = sendSlot;
        boolean inPlace = gatherer.readsInPlace(slot);
        sent(slot, inPlace, inPlace
                ? conn.sendIov(slot, gatherer.iovCount, sendSeq, receives.pendingCredits())
                : conn.send(slot, length, sendSeq, receives.pendingCredits()));
        worker.countSent(length);
    }

    /** Moves on to the next slot after a send of {@code slot} that returned {@code rc}; throws when it failed. */
    private void sent(int slot, boolean inPlace, int rc) throws IOException {
        if (rc <= 0) {
            // Completed at once or failed: UCX no longer reads the buffers.
            gatherer.releaseHeld(slot);
        }
        if (rc < 0) {
            throw new IOException("UCX send failed: " + UcxProcess.statusString(rc));
        }
        receives.clearPendingCredits();
        sendSeq++;
        if (rc != 0) {
            // Still in flight. A send that completed at once leaves its slot free for the next one instead: a
            // connection whose sends complete at once (small messages over shared memory) touches one slot's
            // memory, not all of them.
            sendSlot = slot + 1 == sendSlots ? 0 : slot + 1;
        }
    }

    /** Releases the buffers of sends UCX has finished with; call when completions arrive. */
    public void releaseCompletedSends() {
        if (!gatherer.holdsBuffers()) {
            return;
        }
        for (int slot = 0; slot < sendSlots; slot++) {
            if (gatherer.readsInPlace(slot) && conn.sendState(slot) != UcxNative.SEND_BUSY) {
                gatherer.releaseHeld(slot);
            }
        }
    }

    /**
     * Releases what finished sends held and returns the buffers UCX may still use, which must stay
     * alive until the native connection is freed: those of sends in flight and every receive buffer.
     */
    private List<ByteBuf> takeBuffersInUse() {
        releaseCompletedSends();
        List<ByteBuf> inUse = new ArrayList<>();
        gatherer.takeHeld(inUse);
        receives.takeBuffers(inUse);
        return inUse;
    }

    /** The UCX lanes and transports of the endpoint, as {@code ucp_ep_print_info} reports them. */
    String describe() {
        return closed ? "closed" : conn.describe();
    }

    /**
     * Hands the connection (and the side-channel socket) to the worker, which frees both once
     * every UCX request has finished. {@code force} skips flushing the endpoint: the peer is gone.
     */
    public void close(int sideFd, boolean force) {
        if (closed) {
            return;
        }
        closed = true;
        worker.stopSweeping(index);
        worker.holdUntilFreed(conn.id(), takeBuffersInUse());
        conn.close(sideFd, force);
    }

    /** The worker frees the native connection itself (its event loop is shutting down). */
    public void abandon() {
        closed = true;
        connected = false;
        worker.stopSweeping(index);
        worker.holdUntilFreed(conn.id(), takeBuffersInUse());
    }
}
