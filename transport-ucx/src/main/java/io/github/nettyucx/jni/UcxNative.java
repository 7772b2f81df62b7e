/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import io.netty.channel.DefaultFileRegion;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Every native method of the transport, and the values it shares with the native library (read from
 * {@link UcxNativeConstants}). Each method is registered by {@code JNI_OnLoad}; the C function behind a
 * method is named {@code java_<snake_case_name>} in the file given for its group.
 */
public final class UcxNative {
    static {
        // Registers every native method (JNI_OnLoad), and must come before the constants below, which are read
        // from the library. UcxContext calls ensureLoaded() to turn a failure here into its unavailability cause.
        UcxNativeLibrary.load();
    }

    // Values shared with the native library, defined in ucx_native.h and read from it (ucx_constants.c).
    // Not compile-time constants: they cannot be switch labels.

    /** States of a receive slot's word; a completed receive's word is its payload length (>= 0) instead. */
    public static final int RECV_POSTED = UcxNativeConstants.recvPosted();
    public static final int RECV_IDLE = UcxNativeConstants.recvIdle();
    /** States of a send slot's word; a failed send's word is its negative ucs_status_t instead. */
    public static final int SEND_FREE = UcxNativeConstants.sendFree();
    public static final int SEND_BUSY = UcxNativeConstants.sendBusy();
    /** Words (int32) of a connection's state block, then a word per receive slot, then one per send slot. */
    public static final int STATE_NOTIFIED = UcxNativeConstants.stateNotified();
    public static final int STATE_ERROR = UcxNativeConstants.stateError();
    public static final int STATE_CREDITS = UcxNativeConstants.stateCredits();
    public static final int STATE_WIRED_UP = UcxNativeConstants.stateWiredUp();
    public static final int STATE_HELD = UcxNativeConstants.stateHeld();
    public static final int STATE_HEADER_WORDS = UcxNativeConstants.stateHeaderWords();
    /** Words (int32) of a worker's ready list, then the indices of the connections to dispatch. */
    public static final int READY_COUNT = UcxNativeConstants.readyCount();
    public static final int READY_CAPACITY = UcxNativeConstants.readyCapacity();
    public static final int READY_OVERFLOWED = UcxNativeConstants.readyOverflowed();
    public static final int READY_HEADER_WORDS = UcxNativeConstants.readyHeaderWords();
    /** Elements of the long[] that {@link #connCreate} fills. */
    public static final int CREATED_CONN = UcxNativeConstants.createdConn();
    public static final int CREATED_STATE = UcxNativeConstants.createdState();
    public static final int CREATED_SEND_AREA = UcxNativeConstants.createdSendArea();
    public static final int CREATED_ID = UcxNativeConstants.createdId();
    public static final int CREATED_SEND_STRIDE = UcxNativeConstants.createdSendStride();
    public static final int CREATED_TAG_SECRET = UcxNativeConstants.createdTagSecret();
    public static final int CREATED_MESSAGE_KEY = UcxNativeConstants.createdMessageKey();
    public static final int CREATED_WORDS = UcxNativeConstants.createdWords();
    /** Elements of the long[] that {@link #memoryMap} fills. */
    public static final int MAP_ADDRESS = UcxNativeConstants.mapAddress();
    public static final int MAP_MEMH = UcxNativeConstants.mapMemh();
    public static final int MAP_STATUS = UcxNativeConstants.mapStatus();
    public static final int MAP_WORDS = UcxNativeConstants.mapWords();
    /** Words (int32) of each socket event that {@link #workerWait} writes. */
    public static final int EVENT_FD = UcxNativeConstants.eventFd();
    public static final int EVENT_EVENTS = UcxNativeConstants.eventEvents();
    public static final int EVENT_WORDS = UcxNativeConstants.eventWords();
    /** Bytes of the header in front of every message's payload (the credits returned). */
    public static final int HEADER_BYTES = UcxNativeConstants.headerBytes();
    /** What {@link #connSendCredits} returns while the previous credit message is in flight. */
    public static final int CREDITS_BUSY = UcxNativeConstants.creditsBusy();
    /** What {@link #socketSendFile} returns when the bytes must be copied instead (nothing was sent). */
    public static final int SEND_FILE_DECLINED = UcxNativeConstants.sendFileDeclined();
    /**
     * I/O vector entries per send slot (the header is entry 0), the bytes of one entry (ucp_dt_iov_t), and
     * the offsets of its fields, each a 64-bit value.
     */
    public static final int MAX_IOV = UcxNativeConstants.maxIov();
    public static final int IOV_ENTRY_BYTES = UcxNativeConstants.iovEntryBytes();
    public static final int IOV_BUFFER_OFFSET = UcxNativeConstants.iovBufferOffset();
    public static final int IOV_LENGTH_OFFSET = UcxNativeConstants.iovLengthOffset();
    /** The bits of a sequence number that travel in the tag. */
    public static final int SEQ_MASK = UcxNativeConstants.seqMask();

    /** The kernel's epoll values, for {@link #workerEpollCtl}. */
    public static final int EPOLL_CTL_ADD = UcxNativeConstants.epollCtlAdd();
    public static final int EPOLL_CTL_MOD = UcxNativeConstants.epollCtlMod();
    public static final int EPOLL_CTL_DEL = UcxNativeConstants.epollCtlDel();
    public static final int EPOLLIN = UcxNativeConstants.epollIn();
    public static final int EPOLLOUT = UcxNativeConstants.epollOut();
    public static final int EPOLLERR = UcxNativeConstants.epollErr();
    public static final int EPOLLHUP = UcxNativeConstants.epollHup();
    public static final int EPOLLRDHUP = UcxNativeConstants.epollRdHup();

    /** Byte offsets in the sender array {@link #datagramRecvFrom} fills, and its length. */
    public static final int SENDER_IP = UcxNativeConstants.senderIp();
    public static final int SENDER_SCOPE_ID = UcxNativeConstants.senderScopeId();
    public static final int SENDER_PORT = UcxNativeConstants.senderPort();
    public static final int SENDER_IP_LENGTH = UcxNativeConstants.senderIpLength();
    public static final int SENDER_BYTES = UcxNativeConstants.senderBytes();

    private UcxNative() {
    }

    /**
     * Does nothing, but its first call initialises this class, which loads the library: a failure
     * ({@link UnsatisfiedLinkError}, or any error of a library that does not match these classes) is thrown here.
     */
    public static void ensureLoaded() {
    }

    // ucx_context.c
    /** {@code ucxTcp}: open UCX's own tcp transport ({@link UcxContext#ucxTcpOpen()}). */
    public static native void contextInit(boolean ucxTcp) throws IOException;

    public static native String ucxVersion();

    public static native String statusString(int status);

    /** The transports of the process's UCP context, space separated with a space at each end. */
    public static native String contextTransports() throws IOException;

    // ucx_worker.c
    public static native long workerCreate(int maxConnections) throws IOException;

    public static native int workerDestroy(long worker);

    /** Replaces the UCP worker, closing its connections; returns like {@link #workerDestroy}. */
    public static native int workerRenew(long worker) throws IOException;

    public static native int workerProgress(long worker);

    public static native int workerWait(long worker, long eventsAddress, int maxEvents, long timeoutNanos)
            throws IOException;

    /**
     * Whether the worker's timed waits use epoll_pwait2 (false: its timerfd, as on kernels before 5.11);
     * {@code forceTimerFd} makes them use the timerfd from now on.
     */
    public static native boolean workerTimedWaitPwait2(long worker, boolean forceTimerFd);

    public static native void eventFdWrite(int eventFd);

    public static native int workerEventFd(long worker);

    public static native void workerEpollCtl(long worker, int op, int fd, int events) throws IOException;

    public static native byte[] workerAddress(long worker) throws IOException;

    /** The worker's ready list (ucx_native.h), header and entries, as 32-bit words in the machine's order. */
    public static native ByteBuffer workerReadyList(long worker);

    /** Connections closed by Java that the worker has not freed yet (they still flush or wait for their peer). */
    public static native int workerClosingCount(long worker);

    // ucx_probe.c
    public static native void workerProbeStart(long worker) throws IOException;

    public static native boolean workerProbeArrived(long worker);

    public static native void workerProbeFree(long worker);

    // ucx_conn.c (the connection core; the lifetime of a native connection is described at its top)
    /** Native connections allocated and not freed yet, in every worker of the process (for leak checks). */
    public static native long connectionsAllocated();

    /** A view of native memory that Java does not own; it is big-endian until its order is set. */
    public static native ByteBuffer directBuffer(long address, int length);

    /** The address of a direct buffer's memory, as {@code GetDirectBufferAddress} tells it: Unsafe is not needed. */
    public static native long bufferAddress(ByteBuffer buffer);

    public static native void connCreate(long worker, int index, int recvSlots, int recvSlotBytes, int sendSlots,
                                  int sendSlotBytes, long[] out) throws IOException;

    public static native void connConnect(long conn, byte[] peerAddress, byte[] peerOwnerKey, int peerId, long peerTagSecret,
                                   int peerMessageKey, boolean peerErrorHandling) throws IOException;

    public static native int connSend(long conn, int slot, int length, int seq, int credits);

    public static native int connSendIov(long conn, int slot, int iovCount, int seq, int credits);

    public static native int connSendCredits(long conn, int credits);

    /** Posts the receive of sequence number {@code seq} into {@code address} (a slot's worth of bytes). */
    public static native void connPostRecv(long conn, int slot, int seq, long address, long memoryHandle);

    /** Parks an idle connection (ucx_park.c): 1 when parked, its data receives cancelled; 0 when it is closing. */
    public static native int connPark(long conn, int recvSeq);

    /** Ends a parking once the receives are posted again; held messages none of them took are dropped. */
    public static native void connUnpark(long conn);

    public static native String connDescribe(long conn);

    // ucx_conn.c
    /**
     * Hands the connection and the socket {@code sideFd} (or -1) to its worker, which frees both once no UCX
     * request of it can call back; the pointer must not be used afterwards.
     */
    public static native void connClose(long conn, int sideFd, boolean force, boolean reportFree);

    /** ucx_linger.c: moves ids of connections freed since the last call (those closed with reportFree) into out. */
    public static native int workerTakeFreed(long worker, int[] out);

    // ucx_file_region.c
    /** Bytes sendfile has sent so far, over every connection of the process (for tests). */
    public static native long bytesSentFromFiles();

    /** True when the library reached a {@link DefaultFileRegion}'s file descriptor through its fields. */
    public static native boolean fileRegionFdReachable();

    // ucx_host.c
    /** The threads running or runnable on the host's CPUs now (/proc/loadavg), the caller included; -1 if unknown. */
    public static native int hostRunnableThreads();

    /** The host's online CPUs, whatever this process may use; -1 if unknown. */
    public static native int hostOnlineCpus();

    // ucx_thread.c
    /**
     * Asks the kernel for a time slice of {@code nanos} for the calling thread (0: the kernel's default), keeping
     * its policy and nice value; returns the slice the kernel reports then (0 where it keeps none per thread),
     * or a negative errno.
     */
    public static native long threadRequestSlice(long nanos);

    // ucx_socket.c
    public static native int socketStream(boolean ipv6) throws IOException;

    public static native void socketBindListen(int fd, byte[] address, int port, int backlog) throws IOException;

    public static native void socketBind(int fd, byte[] address, int port) throws IOException;

    public static native int socketAccept(int fd) throws IOException;

    public static native boolean socketConnect(int fd, byte[] address, int port) throws IOException;

    public static native boolean socketFinishConnect(int fd) throws IOException;

    /** Returns the bytes read, 0 when none are waiting, -1 at the peer's end of stream. */
    public static native int socketRead(int fd, long address, int length) throws IOException;

    public static native int socketWrite(int fd, long address, int length) throws IOException;

    public static native void socketShutdownWrite(int fd);

    public static native void socketClose(int fd) throws IOException;

    public static native byte[] socketLocalAddress(int fd);

    public static native byte[] socketRemoteAddress(int fd);

    public static native void socketKeepAlive(int fd, int idleSeconds, int intervalSeconds, int probes);

    /** ucx_peer.c: the uid owning the other end of TCP socket {@code fd}, or -1 when it is not in this host's table. */
    public static native int socketPeerUid(int fd);

    /** ucx_conn.c: calls of ucp_ep_create for connections in this process. */
    public static native long endpointsCreated();

    public static native long endpointsOpen();

    /** ucx_stray.c: messages no receive wanted, dropped by the workers of this process. */
    public static native long straysDropped();

    /** setsockopt of an int option: {@code level} and {@code name} as the constants above. */
    public static native void socketSetOption(int fd, int level, int name, int value) throws IOException;

    /** getsockopt of an int option (of a one-byte one too). */
    public static native int socketGetOption(int fd, int level, int name) throws IOException;

    // ucx_plain.c (plain TCP connections: UcxPlainDataPath)
    /**
     * Writes {@code count} I/O vector entries at {@code iovAddress} with one sendmsg; returns the bytes written, 0
     * when the socket buffer is full.
     */
    public static native long socketWritev(int fd, long iovAddress, int count) throws IOException;

    /**
     * Sends {@code count} bytes of the region's file from {@code position} with sendfile; returns the bytes sent, 0
     * when the socket buffer is full, {@link #SEND_FILE_DECLINED} when the file is out of reach.
     */
    public static native long socketSendFile(int fd, DefaultFileRegion region, long position, long count) throws IOException;

    /**
     * What the socket holds, without taking it: 1 when bytes are waiting, 0 when the peer's end of stream is next,
     * -1 when nothing is there yet; throws the error that ended the connection.
     */
    public static native int socketPeek(int fd) throws IOException;

    /** Sets SO_LINGER to 0: the socket's close resets the connection. */
    public static native void socketResetOnClose(int fd) throws IOException;

    // ucx_datagram.c (UcxDatagramChannel's UDP sockets; an IPv6 one is dual-stack)
    public static native int datagramSocket(boolean ipv6) throws IOException;

    public static native boolean datagramIpv6Supported();

    public static native void datagramBind(int fd, boolean ipv6, byte[] ip, int scopeId, int port) throws IOException;

    public static native void datagramConnect(int fd, boolean ipv6, byte[] ip, int scopeId, int port) throws IOException;

    public static native void datagramDisconnect(int fd) throws IOException;

    /** Returns the bytes sent, or -1 when the socket buffer is full; a refused port throws PortUnreachableException. */
    public static native int datagramSend(int fd, long address, int length) throws IOException;

    /** As {@link #datagramSend}, to the given address. */
    public static native int datagramSendTo(int fd, long address, int length, boolean ipv6, byte[] ip, int scopeId, int port)
            throws IOException;

    /**
     * Receives a datagram of at most {@code length} bytes: returns its length, or -1 when none is waiting, and
     * writes its sender into {@code sender} ({@link #SENDER_BYTES}, laid out by the SENDER_* offsets).
     */
    public static native int datagramRecvFrom(int fd, long address, int length, byte[] sender) throws IOException;

    /** Throws the socket's pending error (SO_ERROR), clearing it; returns when there is none. */
    public static native void datagramTakeError(int fd) throws IOException;

    /** The interface multicast is sent from, by index; 0 lets the routing table decide. */
    public static native void datagramSetMulticastInterface(int fd, boolean ipv6, int index) throws IOException;

    /** Joins or leaves a group (for one source when {@code source} is not null) on the interface of that index. */
    public static native void datagramMembership(int fd, boolean join, byte[] group, byte[] source, int index)
            throws IOException;

    // ucx_memory.c
    /** Fills {@code out} with address, memory handle (0 when registration failed) and the ucs_status_t of ucp_mem_map. */
    public static native void memoryMap(long length, long[] out) throws IOException;

    /** Returns 0, a negative ucs_status_t of ucp_mem_unmap, or a positive errno of munmap. */
    public static native int memoryUnmap(long address, long length, long memh);

    // ucx_log.c (UCX's log lines to Netty's logger: UcxNativeLog)
    /** Routes UCX's log lines to the static methods of {@code receiver}; false when one of them is missing. */
    public static native boolean logInstall(Class<?> receiver);

    /** Sends UCX's log lines to UCX's own output again (the JVM is shutting down). */
    public static native void logStop();

    /** Logs {@code message} as a UCX warning, through UCX's own dispatch. */
    public static native void logUcxWarning(String message);
}
