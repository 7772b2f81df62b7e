/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.jni.UcxContext;
import io.github.nettyucx.jni.UcxNativeWorker;
import io.github.nettyucx.jni.UcxProcess;
import io.netty.buffer.ByteBuf;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * The UCP worker of one event loop ({@link UcxNativeWorker}, which it owns) and what the loop keeps of it in Java:
 * the connections its ready list names, their receive windows that park when idle, the buffers closed
 * connections' sends may still read, and the bytes sent and received. Only the event-loop thread uses it, except
 * {@link #wake()} and the byte counts. That thread may change: a loop of an
 * auto-scaling group is suspended (its thread ends) and resumed on a new one, and Netty hands the loop over
 * only once the old thread is done with it. The UCP worker is created {@code UCS_THREAD_MODE_SERIALIZED}
 * (any thread, one at a time; ucx_worker.c), and its descriptors and memory are the process's.
 */
public final class UcxWorker {
    private static final VarHandle BYTES_SENT;
    private static final VarHandle BYTES_RECEIVED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            BYTES_SENT = lookup.findVarHandle(UcxWorker.class, "bytesSent", long.class);
            BYTES_RECEIVED = lookup.findVarHandle(UcxWorker.class, "bytesReceived", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxWorker.class);

    /** Buffers of workers left allocated by {@link #destroy()}, kept so that no pool reuses them. */
    private static final Queue<Object> LEFT_WITH_LEAKED_WORKERS = new ConcurrentLinkedQueue<>();
    /** The process's live workers, whose byte counts the totals add up, and what the destroyed ones had counted. */
    private static final Set<UcxWorker> LIVE = ConcurrentHashMap.newKeySet();
    private static final LongAdder ENDED_BYTES_SENT = new LongAdder();
    private static final LongAdder ENDED_BYTES_RECEIVED = new LongAdder();

    private final UcxNativeWorker worker;
    private final UcxIoHandler.Registration[] connections;
    private int nextFreeIndex;
    private final int[] freeIndexes;
    private int freeCount;
    /**
     * Buffers of closed connections' sends that UCX may still read, by connection id, until the connection is
     * freed.
     */
    private final IntObjectMap<List<ByteBuf>> heldUntilFreed = new IntObjectHashMap<>();
    private final int[] freedIds = new int[64];
    private byte[] workerAddress;
    private UcxWorkerKey ownerKey;
    private long lastSocketPollNanos = System.nanoTime();
    private long lastWaitNanos = lastSocketPollNanos;
    /** Receive windows that park when idle ({@link UcxReceiveWindow}), by connection index, and how many. */
    private UcxReceiveWindow[] parkable = new UcxReceiveWindow[16];
    private int parkableCount;
    private long nextParkSweepNanos;
    /**
     * Whether a window was awake (not parked) after the last sweep, or has woken or joined since: only then is a
     * sweep due, so that a loop whose connections are all parked sleeps until something happens.
     */
    private boolean windowsAwake;
    private int readyListOverflows;
    /** The bytes of this loop's UCX messages: written on the loop only, read by the metrics from any thread. */
    private long bytesSent;
    private long bytesReceived;
    /** Marks of a stream ({@link #countStreamMark}), on the loop only. */
    private long streamMarks;

    UcxWorker(int maxConnections) throws IOException {
        worker = new UcxNativeWorker(maxConnections);
        connections = new UcxIoHandler.Registration[maxConnections];
        freeIndexes = new int[maxConnections];
        LIVE.add(this);
    }

    /**
     * Why no worker can be made in this JVM (the native library, libucp or a UCP context failed to load, or the
     * runtime cannot make owner keys), or null when workers can be made. Computed once, when first asked.
     */
    public static Throwable unavailabilityCause() {
        return Availability.CAUSE;
    }

    /** Bytes of UCX messages sent by every worker of the process since it started; any thread. */
    public static long bytesSentByAll() {
        long total = ENDED_BYTES_SENT.sum();
        for (UcxWorker worker : LIVE) {
            total += worker.bytesSent();
        }
        return total;
    }

    /** Bytes of UCX messages received by every worker of the process since it started; any thread. */
    public static long bytesReceivedByAll() {
        long total = ENDED_BYTES_RECEIVED.sum();
        for (UcxWorker worker : LIVE) {
            total += worker.bytesReceived();
        }
        return total;
    }

    /** A message of {@code bytes} went out on one of this worker's connections; on the loop. */
    public void countSent(int bytes) {
        BYTES_SENT.setOpaque(this, bytesSent + bytes);
    }

    /** {@code bytes} of messages arrived on one of this worker's connections were read; on the loop. */
    public void countReceived(int bytes) {
        BYTES_RECEIVED.setOpaque(this, bytesReceived + bytes);
    }

    /**
     * One of this worker's connections showed a one-way stream between loops: it returned credits in a message of
     * their own (half its window read with nothing to send back that could carry them), or a flush stopped for want
     * of the peer's credits; on the loop.
     */
    public void countStreamMark() {
        streamMarks++;
    }

    /** What {@link #countStreamMark} counted so far; on the loop. */
    long streamMarks() {
        return streamMarks;
    }

    /** What {@link #countSent} counted so far; any thread. */
    long bytesSent() {
        return (long) BYTES_SENT.getOpaque(this);
    }

    long bytesReceived() {
        return (long) BYTES_RECEIVED.getOpaque(this);
    }

    /** The native worker, which the native connections are created on. */
    public UcxNativeWorker nativeWorker() {
        return worker;
    }

    /** Ends the loop's wait; any thread. */
    void wake() {
        worker.wake();
    }

    /** The owner key its connections' hellos name (made on first use: an X25519 key pair). */
    public UcxWorkerKey ownerKey() {
        if (ownerKey == null) {
            ownerKey = new UcxWorkerKey();
        }
        return ownerKey;
    }

    public byte[] workerAddress() throws IOException {
        if (workerAddress == null) {
            workerAddress = worker.workerAddress();
        }
        return workerAddress;
    }

    /** Reserves the index under which the connection's completions will be reported. */
    int bindConnection(UcxIoHandler.Registration registration) throws IOException {
        int index;
        if (freeCount > 0) {
            index = freeIndexes[--freeCount];
        } else if (nextFreeIndex < connections.length) {
            index = nextFreeIndex++;
        } else {
            throw new IOException("too many UCX connections on one event loop (" + connections.length
                    + "); raise -Dio.github.nettyucx.maxConnectionsPerLoop or use more event loops");
        }
        connections[index] = registration;
        return index;
    }

    void unbindConnection(int index) {
        connections[index] = null;
        freeIndexes[freeCount++] = index;
    }

    /** Makes UCX progress; callbacks record completions natively. Returns a non-zero value on progress. */
    int progress() {
        return worker.progress();
    }

    /**
     * Dispatches the connections listed with completions, once each. Dispatching one may list it
     * again (a send that completes at once, a reposted receive that takes the next message waiting
     * in the worker): those wait at the front of the list for the next call, so a
     * connection with a full socket cannot hold one call (and the loop's tasks) for as long as its
     * peer keeps sending, and the list never holds more than its capacity (ucx_native.h).
     */
    int dispatchCompletions(UcxIoEvent event) {
        if (worker.readyListOverflowed()) {
            return dispatchAllAfterOverflow(event);
        }
        int listed = worker.readyCount();
        int handled = 0;
        for (int i = 0; i < listed; i++) {
            handled += dispatch(worker.readyIndex(i), event);
        }
        worker.readyDispatched(listed);
        return handled;
    }

    private int dispatch(int index, UcxIoEvent event) {
        UcxIoHandler.Registration registration = connections[index];
        if (registration == null) {
            return 0;
        }
        registration.dispatchCompletions(event);
        return 1;
    }

    /**
     * The native side found the list full (which its capacity rules out) and listed no more: looks at
     * every connection instead.
     */
    private int dispatchAllAfterOverflow(UcxIoEvent event) {
        readyListOverflows++;
        logger.warn("The UCX worker's ready list overflowed (a bug in netty-ucx, please report it); "
                + "every connection of the event loop is dispatched instead");
        worker.clearReadyList();
        int handled = 0;
        for (int index = 0; index < nextFreeIndex; index++) {
            handled += dispatch(index, event);
        }
        return handled;
    }

    /** The window of the connection at {@code index} is swept from now on, and parks once idle. */
    public void sweepWhenIdle(int index, UcxReceiveWindow window) {
        if (UcxReceiveWindow.PARK_IDLE_NANOS <= 0) {
            return;
        }
        if (index >= parkable.length) {
            parkable = Arrays.copyOf(parkable, Math.max(index + 1, 2 * parkable.length));
        }
        if (parkable[index] == null) {
            parkableCount++;
        }
        parkable[index] = window;
        windowsAwake = true;
    }

    /** A parked window posted its receives again: it is swept until it parks again. */
    public void windowWoke() {
        windowsAwake = true;
    }

    /** The connection at {@code index} closes: its window is no longer swept. */
    public void stopSweeping(int index) {
        if (index < parkable.length && parkable[index] != null) {
            parkable[index] = null;
            parkableCount--;
        }
    }

    /** Sweeps the windows every half {@link UcxReceiveWindow#PARK_IDLE_NANOS}: those idle since the last sweep park. */
    void sweepIdleWindows(long now) {
        if (parkableCount == 0 || !windowsAwake || now - nextParkSweepNanos < 0) {
            return;
        }
        nextParkSweepNanos = now + UcxReceiveWindow.PARK_IDLE_NANOS / 2;
        boolean awake = false;
        int end = Math.min(parkable.length, nextFreeIndex);
        for (int i = 0; i < end; i++) {
            UcxReceiveWindow window = parkable[i];
            if (window != null) {
                window.sweep();
                awake |= !window.isParked();
            }
        }
        windowsAwake = awake;
    }

    /** Nanoseconds until the next sweep is due, or -1 when there is nothing to sweep: the loop sleeps no longer. */
    public long nanosToSweep(long now) {
        return parkableCount == 0 || !windowsAwake ? -1 : Math.max(0, nextParkSweepNanos - now);
    }

    /** Connections bound to an index now. */
    int boundConnections() {
        return nextFreeIndex - freeCount;
    }

    /** How often the ready list overflowed; for tests, which expect never. */
    int readyListOverflows() {
        return readyListOverflows;
    }

    /** Whether waits with a timeout are timed by epoll_pwait2, one system call, not a timerfd and epoll_wait. */
    boolean timedWaitsUsePwait2() {
        return worker.timedWaitsUsePwait2();
    }

    /** Times the waits with the timerfd, as on kernels without epoll_pwait2; for tests of that path. */
    void timeWaitsWithTimerFd() {
        worker.timeWaitsWithTimerFd();
    }

    /**
     * Waits as {@link UcxNativeWorker#await} describes. Returns the number of socket events, which
     * {@link #dispatchSockets} hands to their handles before the next wait, or -1 when the worker must be progressed
     * first.
     */
    int await(long timeoutNanos) throws IOException {
        int count = worker.await(timeoutNanos);
        long now = System.nanoTime();
        lastWaitNanos = now;
        if (count >= 0) {
            // -1: UCX had events, and the wait returned before it looked at the sockets (bug 17).
            lastSocketPollNanos = now;
        }
        return count;
    }

    /** Hands the {@code count} socket events of the last {@link #await} to their handles; returns how many. */
    int dispatchSockets(int count, UcxIoHandler handler) {
        for (int i = 0; i < count; i++) {
            handler.dispatchSocket(worker.eventSocket(i), worker.eventFlags(i));
        }
        return Math.max(0, count);
    }

    /** Whether connections are listed with completions that {@link #dispatchCompletions} has not handed on yet. */
    boolean hasCompletions() {
        return worker.readyCount() > 0 || worker.readyListOverflowed();
    }

    /**
     * How many connections are listed for {@link #dispatchCompletions}; more than 0 also when the list overflowed,
     * which happens only to a full list.
     */
    int listed() {
        return worker.readyCount();
    }

    /**
     * False when the loop has not looked at its sockets for {@code nanos}: a handler blocked it, so
     * a side channel may hold news (the peer closed) the loop has not seen yet.
     */
    public boolean socketsPolledWithin(long nanos) {
        return System.nanoTime() - lastSocketPollNanos < nanos;
    }

    /** When {@link #await} last looked at the sockets ({@link System#nanoTime()}). */
    long socketsPolledAt() {
        return lastSocketPollNanos;
    }

    /** When {@link #await} last returned, whether or not it looked at the sockets. */
    long waitEndedAt() {
        return lastWaitNanos;
    }

    /**
     * Whether connections closed by Java still need this worker: they flush their last messages or wait
     * for their peers' ends, or UCX may still read buffers held for them ({@link #holdUntilFreed}).
     */
    public boolean hasClosingConnections() {
        return !heldUntilFreed.isEmpty() || worker.closingCount() > 0;
    }

    void epollCtl(int op, int fd, int events) throws IOException {
        worker.epollCtl(op, fd, events);
    }

    /**
     * Keeps {@code buffers} until the native connection {@code connectionId} is freed: it was
     * closed with sends in flight that read them. The connection must be closed with reportFree.
     */
    public void holdUntilFreed(int connectionId, List<ByteBuf> buffers) {
        heldUntilFreed.put(connectionId, buffers);
    }

    /** Releases the buffers of connections the native side has freed since the last call. */
    void releaseFreed() {
        if (heldUntilFreed.isEmpty()) {
            return;
        }
        int n;
        do {
            n = worker.takeFreed(freedIds);
            for (int i = 0; i < n; i++) {
                release(heldUntilFreed.remove(freedIds[i]));
            }
        } while (n == freedIds.length);
    }

    private static void release(List<ByteBuf> buffers) {
        if (buffers != null) {
            for (ByteBuf buffer : buffers) {
                buffer.release();
            }
        }
    }

    /**
     * Frees the worker and every connection on it; returns how many were still open. When closing
     * endpoints do not finish within a few seconds, the UCP worker is left allocated (destroying it
     * then aborts the process in UCX 1.13), and so are the buffers its sends may still read.
     */
    int destroy() {
        if (LIVE.remove(this)) {
            ENDED_BYTES_SENT.add(bytesSent());
            ENDED_BYTES_RECEIVED.add(bytesReceived());
        }
        return releaseHeldAfter(worker.destroy(), "the event loop stopped");
    }

    /**
     * Gives the loop a new UCP worker, closing every connection of the old one without flushing
     * (see {@link #probeStart()}); the loop's epoll set, eventfd and timerfd stay. Returns how
     * many connections were still open.
     */
    int renew() throws IOException {
        int result = worker.renew();
        workerAddress = null;
        // Empties the native list of freed ids too: a new connection may get one of them again.
        releaseFreed();
        return releaseHeldAfter(result, "the event loop replaced its UCP worker");
    }

    /**
     * Releases the buffers held for connections of a destroyed UCP worker: none of their requests
     * is alive any more, unless {@code result} (from workerDestroy/workerRenew) says some were
     * still closing, in which case UCX may still write into them and they stay allocated.
     */
    private int releaseHeldAfter(int result, String when) {
        if (result < 0) {
            logger.warn("{} UCX connection(s) were still closing when {}; their UCP worker is left allocated, "
                    + "because UCX cannot destroy it with requests in flight", -1 - result, when);
            LEFT_WITH_LEAKED_WORKERS.add(new ArrayList<>(heldUntilFreed.values()));
            heldUntilFreed.clear();
            return 0;
        }
        for (List<ByteBuf> buffers : heldUntilFreed.values()) {
            release(buffers);
        }
        heldUntilFreed.clear();
        return result;
    }

    /**
     * Sends one message to this worker from another worker of the process over shared memory
     * (ucx_probe.c): when it does not arrive, a same-host peer that died in the middle of a send
     * left UCX's shared-memory receive queue of this worker stuck (docs/reliability.md, bug 12).
     */
    void probeStart() throws IOException {
        worker.probeStart();
    }

    /** Whether the probe arrived; also makes the probe's own worker progress. */
    boolean probeArrived() {
        return worker.probeArrived();
    }

    /** Frees the probe and its worker; {@link #renew()} does it too. */
    void probeFree() {
        worker.probeFree();
    }

    /** Loads the native library and a UCP context when first asked, not when the class loads. */
    private static final class Availability {
        static final Throwable CAUSE = load();

        private static Throwable load() {
            Throwable cause = UcxContext.unavailabilityCause();
            if (cause != null) {
                return cause;
            }
            String noOwnerKeys = UcxWorkerKey.unavailabilityCause();
            if (noOwnerKeys != null) {
                return new IllegalStateException(noOwnerKeys);
            }
            logger.debug("UCX transport available, libucp {}", UcxProcess.ucxVersion());
            return null;
        }
    }
}
