/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The native worker of one event loop (ucx_worker.c): a UCP worker, the loop's epoll set, eventfd and timerfd, and
 * the memory it shares with Java: the ready list of connections with new completions (ucx_native.h) and the array
 * the socket events of a wait are written to. The transport's {@code UcxWorker} owns it; {@link #destroy()} is the
 * one place it is freed. Used by the loop's thread only, except {@link #wake()}.
 */
public final class UcxNativeWorker {
    private static final int MAX_EVENTS = 256;

    private final long address;
    /** The ready list: header words, then the indexes of the connections to dispatch. */
    private final ByteBuffer readyList;
    private final long readyListAddress;
    /** What {@link #wake()} writes: the loop's epoll set watches it. */
    private final int eventFd;
    private final ByteBuffer events = ByteBuffer.allocateDirect(MAX_EVENTS * UcxNative.EVENT_WORDS * 4)
            .order(ByteOrder.nativeOrder());
    private final long eventsAddress = UcxBytes.address(events);

    /** A worker whose connections are reported under indexes below {@code maxConnections}. */
    public UcxNativeWorker(int maxConnections) throws IOException {
        address = UcxNative.workerCreate(maxConnections);
        readyList = UcxNative.workerReadyList(address).order(ByteOrder.nativeOrder());
        readyListAddress = UcxBytes.address(readyList);
        eventFd = UcxNative.workerEventFd(address);
    }

    long address() {
        return address;
    }

    /** Ends the loop's wait; any thread. */
    public void wake() {
        UcxNative.eventFdWrite(eventFd);
    }

    /** The UCP worker's address, as a peer's endpoint connects to it. */
    public byte[] workerAddress() throws IOException {
        return UcxNative.workerAddress(address);
    }

    /** Makes UCX progress; callbacks list connections with completions. Returns a non-zero value on progress. */
    public int progress() {
        return UcxNative.workerProgress(address);
    }

    /**
     * Arms the UCP worker and waits up to {@code timeoutNanos} (0: not at all, negative: until woken) on the epoll
     * set: the number of socket events ({@link #eventSocket}, {@link #eventFlags}), or -1 when UCX had events and
     * the wait returned before it looked at the sockets (ucx_worker.c: {@code java_worker_wait}).
     */
    public int await(long timeoutNanos) throws IOException {
        return UcxNative.workerWait(address, eventsAddress, MAX_EVENTS, timeoutNanos);
    }

    /** The socket of the {@code i}th event of the last {@link #await}. */
    public int eventSocket(int i) {
        return UcxBytes.getInt(events, eventsAddress, 4 * (UcxNative.EVENT_WORDS * i + UcxNative.EVENT_FD));
    }

    /** The epoll flags of the {@code i}th event of the last {@link #await}. */
    public int eventFlags(int i) {
        return UcxBytes.getInt(events, eventsAddress, 4 * (UcxNative.EVENT_WORDS * i + UcxNative.EVENT_EVENTS));
    }

    /** Adds, changes or removes the loop's interest in socket {@code fd} (op: EPOLL_CTL_*). */
    public void epollCtl(int op, int fd, int flags) throws IOException {
        UcxNative.workerEpollCtl(address, op, fd, flags);
    }

    // The ready list. Dispatching a connection may list it again: those entries follow the ones listed before.

    private int readyWord(int word) {
        return UcxBytes.getInt(readyList, readyListAddress, 4 * word);
    }

    private void setReadyWord(int word, int value) {
        UcxBytes.putInt(readyList, readyListAddress, 4 * word, value);
    }

    /** Connections listed with completions. */
    public int readyCount() {
        return readyWord(UcxNative.READY_COUNT);
    }

    /** The index of the {@code i}th connection listed. */
    public int readyIndex(int i) {
        return readyWord(UcxNative.READY_HEADER_WORDS + i);
    }

    /** Drops the first {@code dispatched} entries: those listed after them move to the front. */
    public void readyDispatched(int dispatched) {
        int listedAgain = readyCount() - dispatched;
        for (int i = 0; i < listedAgain; i++) {
            setReadyWord(UcxNative.READY_HEADER_WORDS + i, readyIndex(dispatched + i));
        }
        setReadyWord(UcxNative.READY_COUNT, listedAgain);
    }

    /** Whether the native side found the list full and listed no more (its capacity rules it out). */
    public boolean readyListOverflowed() {
        return readyWord(UcxNative.READY_OVERFLOWED) != 0;
    }

    /** Empties the list and clears its overflow: every connection is to be looked at instead. */
    public void clearReadyList() {
        setReadyWord(UcxNative.READY_OVERFLOWED, 0);
        setReadyWord(UcxNative.READY_COUNT, 0);
    }

    /** Connections closed by Java that the worker has not freed yet (they still flush or wait for their peer). */
    public int closingCount() {
        return UcxNative.workerClosingCount(address);
    }

    /** Moves ids of connections freed since the last call (ucx_linger.c) into {@code out}; returns how many. */
    public int takeFreed(int[] out) {
        return UcxNative.workerTakeFreed(address, out);
    }

    /** Whether timed waits use epoll_pwait2 (false: the timerfd, as on kernels before 5.11). */
    public boolean timedWaitsUsePwait2() {
        return UcxNative.workerTimedWaitPwait2(address, false);
    }

    /** Times the waits with the timerfd from now on; for tests of that path. */
    public void timeWaitsWithTimerFd() {
        UcxNative.workerTimedWaitPwait2(address, true);
    }

    /**
     * Frees the worker and every connection on it: how many were still open, or -1 - n when n were still closing,
     * in which case the UCP worker is left allocated (destroying it then aborts the process in UCX 1.13).
     */
    public int destroy() {
        return UcxNative.workerDestroy(address);
    }

    /** Replaces the UCP worker, closing its connections unflushed (epoll set, eventfd, timerfd stay); as destroy. */
    public int renew() throws IOException {
        return UcxNative.workerRenew(address);
    }

    /** Sends one message to this worker from another worker of the process over shared memory (ucx_probe.c). */
    public void probeStart() throws IOException {
        UcxNative.workerProbeStart(address);
    }

    /** Whether the probe arrived; also makes the probe's own worker progress. */
    public boolean probeArrived() {
        return UcxNative.workerProbeArrived(address);
    }

    /** Frees the probe and its worker; {@link #renew()} does it too. */
    public void probeFree() {
        UcxNative.workerProbeFree(address);
    }
}
