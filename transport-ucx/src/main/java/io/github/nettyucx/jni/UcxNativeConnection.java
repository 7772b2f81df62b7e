/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One native connection (ucx_conn.c): its receive and send slots, the UCP endpoint once connected, and the state
 * block it shares with Java (ucx_native.h: header words, then a word per receive slot, then one per send slot),
 * which the callbacks of UCX write and this class reads. The transport's {@code UcxConnection} owns it;
 * {@link #close} hands it to its worker, which frees it once no UCX request of it can call back. Used on the
 * event loop only.
 */
public final class UcxNativeConnection {
    private final long conn;
    private final ByteBuffer state;
    private final long stateAddress;
    private final int recvSlots;
    private final int id;
    private final long tagSecret;
    private final int messageKey;
    private final long sendAreaAddress;
    private final int sendStride;

    private UcxNativeConnection(long[] created, int recvSlots, int sendSlots) {
        this.conn = created[UcxNative.CREATED_CONN];
        this.recvSlots = recvSlots;
        this.id = (int) created[UcxNative.CREATED_ID];
        this.tagSecret = created[UcxNative.CREATED_TAG_SECRET];
        this.messageKey = (int) created[UcxNative.CREATED_MESSAGE_KEY];
        this.sendAreaAddress = created[UcxNative.CREATED_SEND_AREA];
        this.sendStride = (int) created[UcxNative.CREATED_SEND_STRIDE];
        this.stateAddress = created[UcxNative.CREATED_STATE];
        this.state = UcxBytes.words(stateAddress,
                4 * (UcxNative.STATE_HEADER_WORDS + recvSlots + sendSlots));
    }

    /**
     * A connection on {@code worker} whose completions are listed under {@code index}, with {@code recvSlots}
     * receive slots and {@code sendSlots} send slots of {@code slotBytes} each (header included).
     */
    public static UcxNativeConnection create(UcxNativeWorker worker, int index, int recvSlots, int sendSlots,
            int slotBytes) throws IOException {
        long[] created = new long[UcxNative.CREATED_WORDS];
        UcxNative.connCreate(worker.address(), index, recvSlots, slotBytes, sendSlots, slotBytes, created);
        try {
            return new UcxNativeConnection(created, recvSlots, sendSlots);
        } catch (Throwable t) {
            UcxNative.connClose(created[UcxNative.CREATED_CONN], -1, true, true);
            throw t;
        }
    }

    /** The id the worker reports the connection freed under ({@link UcxNativeWorker#takeFreed}). */
    public int id() {
        return id;
    }

    /** The rest of the tags of the messages this connection receives, told to the peer in our hello. */
    public long tagSecret() {
        return tagSecret;
    }

    /** What the header of each message this connection receives must carry, told to the peer in our hello. */
    public int messageKey() {
        return messageKey;
    }

    /** The send slots' memory: {@code sendStride} bytes per slot. */
    public long sendAreaAddress() {
        return sendAreaAddress;
    }

    public int sendStride() {
        return sendStride;
    }

    /**
     * Creates the UCX endpoint to the peer's worker (its address and owner key, and what its hello said of its
     * connection): messages travel as tagged messages from now on.
     */
    public void connect(byte[] workerAddress, byte[] ownerKey, int peerId, long peerTagSecret, int peerMessageKey,
            boolean peerErrorHandling) throws IOException {
        UcxNative.connConnect(conn, workerAddress, ownerKey, peerId, peerTagSecret, peerMessageKey,
                peerErrorHandling);
    }

    // The state block.

    /** Re-enables completion notifications; call before looking at the state. */
    public void clearNotified() {
        UcxBytes.putInt(state, stateAddress, 4 * UcxNative.STATE_NOTIFIED, 0);
    }

    /** The ucs_status_t the endpoint failed with, or 0. */
    public int endpointError() {
        return UcxBytes.getInt(state, stateAddress, 4 * UcxNative.STATE_ERROR);
    }

    /** True once UCX has finished setting up the endpoint. */
    public boolean wiredUp() {
        return UcxBytes.getInt(state, stateAddress, 4 * UcxNative.STATE_WIRED_UP) != 0;
    }

    /** Credits the peer has returned so far, counted natively from the headers and control messages. */
    public int creditsReceived() {
        return UcxBytes.getInt(state, stateAddress, 4 * UcxNative.STATE_CREDITS);
    }

    /** Messages held by a parked connection (ucx_park.c) for its receives to take. */
    public int held() {
        return UcxBytes.getInt(state, stateAddress, 4 * UcxNative.STATE_HELD);
    }

    /** A receive slot's word: RECV_POSTED, RECV_IDLE, a completed receive's payload length or a failed one's status. */
    public int recvState(int slot) {
        return UcxBytes.getInt(state, stateAddress, 4 * (UcxNative.STATE_HEADER_WORDS + slot));
    }

    /** A send slot's word: SEND_FREE, SEND_BUSY, or a failed send's negative status. */
    public int sendState(int slot) {
        return UcxBytes.getInt(state, stateAddress, 4 * (UcxNative.STATE_HEADER_WORDS + recvSlots + slot));
    }

    // Messages.

    /**
     * Sends the first {@code length} bytes of send slot {@code slot} after its header: 0 when it completed at once,
     * positive while in flight, a negative status when it failed.
     */
    public int send(int slot, int length, int seq, int credits) {
        return UcxNative.connSend(conn, slot, length, seq, credits);
    }

    /** As {@link #send}, of the slot's I/O vector of {@code iovCount} entries (the header is entry 0). */
    public int sendIov(int slot, int iovCount, int seq, int credits) {
        return UcxNative.connSendIov(conn, slot, iovCount, seq, credits);
    }

    /** Returns credits in a control message: as {@link #send}, or CREDITS_BUSY while the last one is in flight. */
    public int sendCredits(int credits) {
        return UcxNative.connSendCredits(conn, credits);
    }

    /** Posts the receive of sequence number {@code seq} into {@code address} (a slot's worth of bytes). */
    public void postReceive(int slot, int seq, long address, long memoryHandle) {
        UcxNative.connPostRecv(conn, slot, seq, address, memoryHandle);
    }

    /** Parks an idle connection (ucx_park.c): true when parked, its data receives cancelled; false when closing. */
    public boolean park(int recvSeq) {
        return UcxNative.connPark(conn, recvSeq) != 0;
    }

    /** Ends a parking once the receives are posted again; held messages none of them took are dropped. */
    public void unpark() {
        UcxNative.connUnpark(conn);
    }

    /** The UCX lanes and transports of the endpoint, as {@code ucp_ep_print_info} reports them. */
    public String describe() {
        return UcxNative.connDescribe(conn);
    }

    /**
     * Hands the connection and the socket {@code sideFd} (or -1) to its worker, which frees both once no UCX
     * request of it can call back. {@code force} skips flushing the endpoint: the peer is gone. Call once.
     */
    public void close(int sideFd, boolean force) {
        UcxNative.connClose(conn, sideFd, force, true);
    }
}
