/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Every native method of the transport. Each is registered by {@code JNI_OnLoad}; the C function
 * behind a method is named {@code java_<snake_case_name>} in the file given for its group.
 */
final class UcxNative {
    // Values shared with ucx_native.h.
    static final int RECV_POSTED = -1000000;
    static final int RECV_IDLE = -1000001;
    static final int SEND_FREE = 0;
    static final int SEND_BUSY = 1;
    static final int STATE_NOTIFIED = 0;
    static final int STATE_ERROR = 1;
    static final int STATE_CREDITS = 2;
    static final int STATE_WIRED_UP = 3;
    static final int STATE_SIDE_INPUT = 4;
    static final int STATE_HEADER_WORDS = 5;
    static final int READY_COUNT = 0;
    static final int READY_OVERFLOWED = 2;
    static final int READY_HEADER_WORDS = 3;
    /** Bytes of the header in front of every message's payload (the credits returned). */
    static final int HEADER_BYTES = 4;
    static final int CREDITS_BUSY = 2;
    /** I/O vector entries per send slot (the header is entry 0), and the bytes of one entry (ucp_dt_iov_t). */
    static final int MAX_IOV = 64;
    static final int IOV_ENTRY_BYTES = 16;
    static final int SEQ_MASK = 0x7FFFFF;

    static final int EPOLL_CTL_ADD = 0;
    static final int EPOLL_CTL_MOD = 1;
    static final int EPOLL_CTL_DEL = 2;
    static final int EPOLLIN = 0x001;
    static final int EPOLLOUT = 0x004;
    static final int EPOLLERR = 0x008;
    static final int EPOLLHUP = 0x010;
    static final int EPOLLRDHUP = 0x2000;

    private UcxNative() {
    }

    // ucx_context.c
    static native void contextInit() throws IOException;

    static native String ucxVersion();

    static native String statusString(int status);

    /** The transports of the process's UCP context, space separated with a space at each end. */
    static native String contextTransports() throws IOException;

    // ucx_worker.c
    static native long workerCreate(int maxConnections) throws IOException;

    static native int workerDestroy(long worker);

    /** Replaces the UCP worker, closing its connections; returns like {@link #workerDestroy}. */
    static native int workerRenew(long worker) throws IOException;

    static native int workerProgress(long worker);

    static native int workerWait(long worker, long eventsAddress, int maxEvents, long timeoutNanos)
            throws IOException;

    static native void eventFdWrite(int eventFd);

    static native int workerEventFd(long worker);

    static native void workerEpollCtl(long worker, int op, int fd, int events) throws IOException;

    static native byte[] workerAddress(long worker) throws IOException;

    static native long workerReadyList(long worker);

    /** Moves ids of connections freed since the last call (those closed with reportFree) into out. */
    static native int workerTakeFreed(long worker, int[] out);

    // ucx_probe.c
    static native void workerProbeStart(long worker) throws IOException;

    static native boolean workerProbeArrived(long worker);

    static native void workerProbeFree(long worker);

    // ucx_endpoint.c
    static native ByteBuffer directBuffer(long address, int length);

    static native void connCreate(long worker, int index, int recvSlots, int recvSlotBytes, int sendSlots,
                                  int sendSlotBytes, long[] out) throws IOException;

    static native void connConnect(long conn, byte[] peerAddress, int peerId, boolean peerErrorHandling)
            throws IOException;

    static native int connSend(long conn, int slot, int length, int seq, int credits);

    static native int connSendIov(long conn, int slot, int iovCount, int seq, int credits);

    static native int connSendCredits(long conn, int credits);

    /** Posts the receive of sequence number {@code seq} into {@code address} (a slot's worth of bytes). */
    static native void connPostRecv(long conn, int slot, int seq, long address, long memoryHandle);

    static native void connClose(long conn, int sideFd, boolean force, boolean reportFree);

    static native String connDescribe(long conn);

    // ucx_stream.c
    /**
     * Moves the connection to the TCP data path on {@code fd}: {@code input} holds side-channel bytes read
     * after the peer's hello, {@code output} bytes of our hello not written yet.
     */
    static native void connStreamStart(long conn, int fd, long input, int inputLength, long output,
                                       int outputLength) throws IOException;

    /** Queues a side-channel record after the data sent so far; returns 0 or a ucs_status_t. */
    static native int connStreamRecord(long conn, byte type, int messages);

    /** Copies records that arrived to {@code address}; returns their bytes, or -1 at the peer's end. */
    static native int connStreamTakeRecords(long conn, long address, int capacity);

    /** Reads what the socket holds now (frames go to their slots, records wait for Java). */
    static native void connStreamRead(long conn);

    /** Writes the messages a burst deferred to the worker's next progress, now. */
    static native void connStreamFlush(long conn);

    /** The socket error that ended the peer's stream (for example "Connection timed out"), or null. */
    static native String connStreamEndError(long conn);

    /** Native connections allocated and not freed yet, in every worker of the process (for leak checks). */
    static native long connectionsAllocated();

    // ucx_socket.c
    static native int socketStream(boolean ipv6) throws IOException;

    static native void socketBindListen(int fd, byte[] address, int port, int backlog) throws IOException;

    static native void socketBind(int fd, byte[] address, int port) throws IOException;

    static native int socketAccept(int fd) throws IOException;

    static native boolean socketConnect(int fd, byte[] address, int port) throws IOException;

    static native boolean socketFinishConnect(int fd) throws IOException;

    static native int socketRead(int fd, long address, int length) throws IOException;

    static native int socketWrite(int fd, long address, int length) throws IOException;

    static native void socketShutdownWrite(int fd);

    static native void socketClose(int fd) throws IOException;

    static native byte[] socketLocalAddress(int fd);

    static native byte[] socketRemoteAddress(int fd);

    static native void socketKeepAlive(int fd, int idleSeconds, int intervalSeconds, int probes);

    // ucx_memory.c
    /** Fills {@code out} with address, memory handle (0 when registration failed) and the ucs_status_t of ucp_mem_map. */
    static native void memoryMap(long length, long[] out) throws IOException;

    /** Returns 0, a negative ucs_status_t of ucp_mem_unmap, or a positive errno of munmap. */
    static native int memoryUnmap(long address, long length, long memh);
}
