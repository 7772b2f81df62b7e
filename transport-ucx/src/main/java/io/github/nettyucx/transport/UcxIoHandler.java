/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.util.NettyRuntime;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.netty.util.concurrent.ThreadAwareExecutor;
import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link IoHandler} of a UCX event loop: one UCP worker per loop thread. {@link #run} makes UCX
 * progress, hands completions to channels, and when idle spins and/or arms the worker and sleeps
 * in epoll (over the worker's event fd, an eventfd for {@link #wakeup()}, a timerfd for scheduled
 * tasks and the connections' side-channel sockets). It sees channels only as {@link UcxIoHandle}s.
 * After a same-host peer vanished, {@link UcxSharedMemoryProbe} checks that the worker's shared-memory
 * receive queue still delivers, and has a worker whose queue is stuck replaced.
 *
 * <p>Its loop may change threads: in an auto-scaling group ({@code AutoScalingEventExecutorChooserFactory})
 * Netty suspends an idle loop, which has no registrations, and resumes it on a new thread when a task
 * arrives. Everything the handler owns goes along (see {@link UcxWorker}); {@link UcxSuspensionGuard} keeps
 * the loop from suspending while closed connections still need its worker, and each run reports the time
 * it spent on I/O, not waiting, through {@link IoHandlerContext#reportActiveIoTime}, which is what the group
 * scales on.
 */
public final class UcxIoHandler implements IoHandler {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxIoHandler.class);
    private static final long AWAKE = -1L;
    private static final long NONE = Long.MAX_VALUE;
    /** While busy, side-channel sockets are polled at least this often. */
    private static final long BUSY_SOCKET_POLL_NANOS = 50_000;
    /**
     * How long a spin polls before it starts yielding the core (see {@link #spin}):
     * {@code -Dio.github.nettyucx.spinYieldAfterMicros}, default 10, negative for never. Never yielding
     * gives the best round trips while every loop has a core of its own, and loses most of the throughput
     * once more threads are busy than there are cores; the measurements behind 10 are in
     * docs/settings.md#yielding-while-spinning.
     */
    private static final long SPIN_WITHOUT_YIELD_NANOS = spinWithoutYieldNanos(
            SystemPropertyUtil.getLong("io.github.nettyucx.spinYieldAfterMicros", 10));
    /** Then the thread yields once every this many (a power of two) empty progress rounds. */
    private static final int SPIN_ROUNDS_PER_YIELD_MASK = 4 - 1;
    /**
     * Whether {@link WaitStrategy#ADAPTIVE} yields from the first empty round, every round, once
     * {@link AdaptiveSpin#yieldAtOnce()} says the peer needs our core:
     * {@code -Dio.github.nettyucx.adaptiveYieldAtOnce}. It shortens round trips while two loops share a core, and
     * keeps them sharing it, where the spin that yields later lets the scheduler move one to a free core; so by
     * default it is on only where there is no other core to move to: a JVM allowed one CPU
     * (docs/settings.md#adaptive-waiting).
     */
    private static final boolean ADAPTIVE_YIELD_AT_ONCE = SystemPropertyUtil.getBoolean(
            "io.github.nettyucx.adaptiveYieldAtOnce", NettyRuntime.availableProcessors() == 1);
    /**
     * Whether {@link WaitStrategy#ADAPTIVE} stops spinning for a while when busy threads take the cores
     * ({@link CoreContention}): {@code -Dio.github.nettyucx.sleepWhenContended}, default true
     * (docs/settings.md#busy-neighbours).
     */
    private static final boolean SLEEP_WHEN_CONTENDED = SystemPropertyUtil.getBoolean(
            "io.github.nettyucx.sleepWhenContended", true);
    private final ThreadAwareExecutor executor;
    private final UcxIoHandlerConfig config;
    private final IntObjectMap<Registration> registrationsByFd = new IntObjectHashMap<>(64);
    private final List<Registration> registrations = new ArrayList<>();
    private final UcxIoEvent event = new UcxIoEvent();
    private final AtomicLong nextWakeupNanos = new AtomicLong(AWAKE);
    /** Eventfd writes of {@link #wakeup()} in this process: counted where the system call is made anyway. */
    static final LongAdder WAKEUP_WRITES = new LongAdder();
    /** The same, of this handler only (tests look at one loop while others of the process run). */
    private final LongAdder wakeupWrites = new LongAdder();
    /** Holds of {@link CoreContention} begun in this process: beside busy threads, sleeping at once paid. */
    static final LongAdder CONTENTION_HOLDS = new LongAdder();
    private final UcxSharedMemoryProbe sharedMemoryProbe = new UcxSharedMemoryProbe(new ProbedLoop());
    private final UcxSuspensionGuard suspensionGuard;
    /** The spin window of {@link WaitStrategy#ADAPTIVE}. */
    private final AdaptiveSpin adaptiveSpin;
    /** Tells from the spins' yields and the loop's rate of work when sleeping at once beats spinning. */
    private final CoreContention contention = new CoreContention(JvmWork.INSTANCE);
    /** Whether {@link #contention} may stop this loop's spins: {@link WaitStrategy#ADAPTIVE} only. */
    private final boolean holdsSpinning;
    /** Events the loop's runs have handled so far: what {@link #contention} compares spinning and sleeping by. */
    private long work;
    /**
     * Registrations whose socket carries a plain TCP connection: while there are any, the loop looks at its
     * sockets in every run and every spin round, as it makes UCX progress (a UCX connection's bytes arrive through
     * the worker, a plain one's only through the epoll set).
     */
    private int plainSockets;
    /** The I/O vector and scratch memory of the loop's plain TCP connections; created with the first. */
    private UcxPlainGather plainGather;
    /** Whether the last yield of the current spin let another thread run on this core. */
    private boolean yieldGaveCoreAway;
    private UcxWorker worker;
    /**
     * Where the I/O work of the current run began ({@link System#nanoTime()}): the start of the run, the end of
     * the last empty spin round, or the end of the wait. What follows is reported as active I/O time.
     */
    private long ioStartNanos;

    private static long spinWithoutYieldNanos(long micros) {
        return micros < 0 ? Long.MAX_VALUE / 4 : TimeUnit.MICROSECONDS.toNanos(micros);
    }

    /**
     * Creates the loop's UCP worker at once (on the thread that builds the group), so that a worker
     * UCX cannot create fails the group's constructor instead of a loop thread later.
     */
    private UcxIoHandler(ThreadAwareExecutor executor, UcxIoHandlerConfig config) {
        this.executor = executor;
        this.config = config;
        suspensionGuard = new UcxSuspensionGuard(executor, this::workerStillBusy);
        adaptiveSpin = new AdaptiveSpin(config.spinNanos());
        holdsSpinning = SLEEP_WHEN_CONTENDED && config.waitStrategy() == WaitStrategy.ADAPTIVE;
        try {
            worker = new UcxWorker(config.maxConnectionsPerLoop());
        } catch (IOException e) {
            throw new IllegalStateException("could not create a UCP worker for the event loop: " + e.getMessage()
                    + " (a full /dev/shm or a low 'ulimit -l' are common causes)", e);
        }
    }

    /** A factory of handlers with the default {@link UcxIoHandlerConfig}. */
    public static IoHandlerFactory newFactory() {
        return newFactory(new UcxIoHandlerConfig());
    }

    public static IoHandlerFactory newFactory(UcxIoHandlerConfig config) {
        Ucx.ensureAvailability();
        ObjectUtil.checkNotNull(config, "config");
        return new Factory(config);
    }

    /**
     * Says that its handlers may change threads, which lets Netty suspend their loops: the UCP worker may be
     * progressed by any thread, one at a time, and nothing else the handler owns belongs to a thread (see
     * {@link UcxWorker}); Netty hands a loop to its next thread only after the last one let go of it.
     */
    private static final class Factory implements IoHandlerFactory {
        private final UcxIoHandlerConfig config;

        Factory(UcxIoHandlerConfig config) {
            this.config = config;
        }

        @Override
        public IoHandler newHandler(ThreadAwareExecutor executor) {
            return new UcxIoHandler(executor, config);
        }

        @Override
        public boolean isChangingThreadSupported() {
            return true;
        }
    }

    @Override
    public void initialize() {
        // Also called each time a suspended loop resumes on a new thread: the worker, created with the handler,
        // and its descriptors simply carry on there.
    }

    UcxWorker worker() {
        return worker;
    }

    UcxSharedMemoryProbe sharedMemoryProbe() {
        return sharedMemoryProbe;
    }

    UcxSuspensionGuard suspensionGuard() {
        return suspensionGuard;
    }

    /** Whether the worker has work left that no registration stands for (see {@link UcxSuspensionGuard}). */
    private boolean workerStillBusy() {
        return worker != null && (worker.hasClosingConnections() || sharedMemoryProbe.inFlight());
    }

    @Override
    public int run(IoHandlerContext context) {
        try {
            sharedMemoryProbe.check();
            ioStartNanos = System.nanoTime();
            long socketsPolledBefore = worker.socketsPolledAt();
            int handled = processCompletions();
            if (handled == 0 && context.canBlock()) {
                handled = awaitWork(context);
            }
            long now = System.nanoTime();
            handled += pollSocketsIfDue(socketsPolledBefore, now);
            work += handled;
            if (handled > 0 && context.shouldReportActiveIoTime()) {
                context.reportActiveIoTime(now - ioStartNanos);
            }
            return handled;
        } catch (IOException e) {
            logger.warn("Unexpected failure of the UCX event loop; it continues", e);
            return 0;
        }
    }

    /** Waits for work as the configured strategy says; returns what it handled once some came. */
    private int awaitWork(IoHandlerContext context) throws IOException {
        if (plainSockets > 0 && worker.boundConnections() == 0) {
            // Only plain TCP connections: nothing comes through UCX, and spinning would take the core that the
            // peers and the kernel's TCP processing need. The loop waits as epoll's does.
            return sleep(context);
        }
        switch (config.waitStrategy()) {
            case BUSY_POLL:
                return Math.max(0, worker.waitAndDispatch(0, this));
            case SPIN_THEN_SLEEP:
                int handled = spin(context, config.spinNanos(), SPIN_WITHOUT_YIELD_NANOS, SPIN_ROUNDS_PER_YIELD_MASK);
                return handled > 0 ? handled : sleep(context);
            case ADAPTIVE:
                return adaptiveWait(context);
            case SLEEP:
            default:
                return sleep(context);
        }
    }

    /**
     * Polls the sockets, unless this run looked at them already, when the loop has not looked at them for a
     * while: under steady UCX traffic a run always finds completions (directly or within its spin) and never
     * reaches the epoll wait, and a new connection's hello or a peer's close record would wait forever. With
     * plain TCP connections, whose bytes arrive only through the epoll set, every run looks.
     */
    private int pollSocketsIfDue(long polledBeforeRun, long now) throws IOException {
        long polledAt = worker.socketsPolledAt();
        if (polledAt != polledBeforeRun || plainSockets == 0 && now - polledAt < BUSY_SOCKET_POLL_NANOS) {
            return 0;
        }
        return Math.max(0, worker.waitAndDispatch(0, this));
    }

    /** Progress rounds per run, so that a flood of messages cannot starve the loop's tasks. */
    private static final int MAX_PROGRESS_ROUNDS = 16;

    private int processCompletions() {
        int handled = 0;
        for (int i = 0; i < MAX_PROGRESS_ROUNDS && worker.progress() != 0; i++) {
            handled += worker.dispatchCompletions(event);
        }
        worker.releaseFreed();
        return handled + worker.dispatchCompletions(event);
    }

    /**
     * Spins as {@link AdaptiveSpin} says, then sleeps; tells it how the idle period ended. With
     * {@link #ADAPTIVE_YIELD_AT_ONCE}, spin rounds that yield, yield every round, and from the first one while
     * the peer needs our core; without it, they yield as {@link WaitStrategy#SPIN_THEN_SLEEP}'s do. While busy
     * threads take the cores and {@link CoreContention} tries or holds sleeping at once, it sleeps at once, and the
     * window waits for that to end.
     */
    private int adaptiveWait(IoHandlerContext context) throws IOException {
        long idleStart = ioStartNanos;
        if (holdsSpinning && holdsBesideBusyThreads(idleStart)) {
            return sleep(context);
        }
        long yieldAfter = ADAPTIVE_YIELD_AT_ONCE && adaptiveSpin.yieldAtOnce() ? 0 : SPIN_WITHOUT_YIELD_NANOS;
        int handled = spin(context, adaptiveSpin.windowNanos(), yieldAfter,
                ADAPTIVE_YIELD_AT_ONCE ? 0 : SPIN_ROUNDS_PER_YIELD_MASK);
        if (handled > 0) {
            adaptiveSpin.foundWork(yieldGaveCoreAway);
            return handled;
        }
        handled = sleep(context);
        adaptiveSpin.slept(System.nanoTime() - idleStart);
        return handled;
    }

    /** Whether {@link #contention} has this idle period sleep at once; counts the holds it begins. */
    private boolean holdsBesideBusyThreads(long now) {
        long begun = contention.holdsBegun();
        boolean holds = contention.holds(now, work);
        if (contention.holdsBegun() != begun) {
            CONTENTION_HOLDS.increment();
        }
        return holds;
    }

    /**
     * Polls the worker until work arrives or {@code spinNanos} are over. After the first {@code yieldAfterNanos}
     * the thread yields its core every {@code roundsPerYieldMask + 1} empty rounds: when there are more busy
     * threads than cores (the peer process, other loops, the application), a spinner that never yields holds
     * the core that the thread it waits for needs, and round trips stretch to scheduler time slices. Yielding
     * from the start would cost a quick reply its fast path, unless the peer is known to share our core
     * ({@link AdaptiveSpin}). Each empty round moves {@link #ioStartNanos}: the round that finds work is the only
     * active one. Every yield, and every slice-long gap between rounds, is reported to {@link CoreContention}; an
     * adaptive loop stops spinning as soon as it starts a trial of sleeping at once.
     */
    private int spin(IoHandlerContext context, long spinNanos, long yieldAfterNanos, int roundsPerYieldMask)
            throws IOException {
        long start = ioStartNanos;
        long spinUntil = start + spinNanos;
        long yieldFrom = start + yieldAfterNanos;
        int rounds = 0;
        long now;
        long roundStart = start;
        yieldGaveCoreAway = false;
        do {
            int handled = processCompletions();
            if (plainSockets > 0) {
                handled += Math.max(0, worker.waitAndDispatch(0, this));
            }
            if (handled > 0) {
                return handled;
            }
            if (!context.canBlock()) {
                return 0;
            }
            now = System.nanoTime();
            boolean held = holdsSpinning && contention.between(now, now - roundStart, work);
            ioStartNanos = now;
            if (now >= yieldFrom && (++rounds & roundsPerYieldMask) == 0) {
                Thread.yield();
                // A yield may last a time slice, spent waiting.
                ioStartNanos = System.nanoTime();
                long yielded = ioStartNanos - now;
                yieldGaveCoreAway = yielded >= AdaptiveSpin.OTHER_THREAD_RAN_NANOS;
                held |= holdsSpinning && contention.yielded(ioStartNanos, yielded, work);
            }
            if (held) {
                break;
            }
            roundStart = ioStartNanos;
        } while (now < spinUntil);
        return Math.max(0, worker.waitAndDispatch(0, this));
    }

    /**
     * Publishes the wake-up deadline before re-checking {@link IoHandlerContext#canBlock()}: a task
     * added after that check sees the deadline in {@link #wakeup()} and writes the eventfd.
     */
    private int sleep(IoHandlerContext context) throws IOException {
        if (!context.canBlock()) {
            // Work came while the loop spun: it does not sleep, so it publishes no deadline either, which would
            // have tasks from other threads write the eventfd in the meantime for nothing.
            return processCompletions();
        }
        long deadline = context.deadlineNanos();
        nextWakeupNanos.set(deadline == -1 ? NONE : deadline);
        int events = 0;
        try {
            if (context.canBlock()) {
                long timeout = deadline == -1 ? -1 : Math.max(1, context.delayNanos(System.nanoTime()));
                if (sharedMemoryProbe.inFlight() && (timeout < 0 || timeout > UcxSharedMemoryProbe.CHECK_NANOS)) {
                    timeout = UcxSharedMemoryProbe.CHECK_NANOS;
                }
                UcxTransportMetrics.loopSlept();
                events = worker.waitAndDispatch(timeout, this);
                ioStartNanos = worker.socketsPolledAt();
            }
        } finally {
            nextWakeupNanos.set(AWAKE);
        }
        return Math.max(0, events) + processCompletions();
    }

    /**
     * Fails every connection of this loop with {@code cause} (their peers see a reset) and gives the loop a
     * new UCP worker; the server channels and their sockets stay. Returns how many connections closed.
     */
    private int replaceWorker(IOException cause) throws IOException {
        int closed = 0;
        for (Registration registration : registrations.toArray(new Registration[0])) {
            if (registration.handle.workerLost(cause)) {
                closed++;
            }
        }
        int leftOpen = worker.renew();
        if (leftOpen > 0) {
            logger.debug("{} connection(s) of the replaced UCP worker were left open by their channels", leftOpen);
        }
        return closed;
    }

    /** What {@link UcxSharedMemoryProbe} sees of this loop. */
    private final class ProbedLoop implements UcxSharedMemoryProbe.Loop {
        @Override
        public UcxWorker worker() {
            return worker;
        }

        @Override
        public void processCompletions() {
            UcxIoHandler.this.processCompletions();
        }

        @Override
        public int replaceWorker(IOException cause) throws IOException {
            return UcxIoHandler.this.replaceWorker(cause);
        }
    }

    void dispatchSocket(int fd, int ops) {
        Registration registration = registrationsByFd.get(fd);
        if (registration != null) {
            registration.handle.handle(registration, event.socket(ops));
        }
    }

    @Override
    public void prepareToDestroy() {
        for (Registration registration : registrations.toArray(new Registration[0])) {
            registration.closeHandle();
        }
    }

    @Override
    public void destroy() {
        // Channels can still register while the loop shuts down, after prepareToDestroy() closed the others.
        // The executor takes no more tasks, so they cannot run Netty's close; they let go of native state instead.
        for (Registration registration : registrations.toArray(new Registration[0])) {
            registration.handle.abandon();
        }
        if (worker != null) {
            int leftOpen = worker.destroy();
            if (leftOpen > 0) {
                logger.debug("{} UCX connection(s) registered during shutdown were closed with their worker",
                        leftOpen);
            }
            worker = null;
        }
    }

    @Override
    public IoRegistration register(IoHandle handle) {
        Registration registration = new Registration((UcxIoHandle) handle);
        registrations.add(registration);
        handle.registered();
        return registration;
    }

    @Override
    public void wakeup() {
        if (!executor.isExecutorThread(Thread.currentThread()) && nextWakeupNanos.getAndSet(AWAKE) != AWAKE) {
            UcxNative.eventFdWrite(worker.eventFd());
            WAKEUP_WRITES.increment();
            wakeupWrites.increment();
        }
    }

    /** Holds of this loop's {@link CoreContention} so far; on the loop's thread. */
    long contentionHolds() {
        return contention.holdsBegun();
    }

    /** Eventfd writes of {@link #wakeup()} to this handler's loop so far. */
    long wakeupWrites() {
        return wakeupWrites.sum();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return UcxIoHandle.class.isAssignableFrom(handleType);
    }

    /**
     * A handle's registration: the epoll interest of its side-channel socket and the index under
     * which its UCX connection reports completions. Used on the event-loop thread only, except
     * {@link #cancel()}.
     */
    final class Registration implements IoRegistration {
        final UcxIoHandle handle;
        private int fd = -1;
        private int events;
        private int connectionIndex = -1;
        private boolean plainSocket;
        private volatile boolean valid = true;

        Registration(UcxIoHandle handle) {
            this.handle = handle;
        }

        /** This registration itself: channels reach their connection index and worker through it. */
        @SuppressWarnings("unchecked")
        @Override
        public <T> T attachment() {
            return (T) this;
        }

        @Override
        public long submit(IoOps ops) {
            if (!valid) {
                return -1;
            }
            int fdNow = handle.fd();
            int wanted = ((UcxIoOps) ops).events();
            try {
                updateEpoll(fdNow, wanted);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return wanted;
        }

        private void updateEpoll(int fdNow, int wanted) throws IOException {
            if (fd != fdNow && fd >= 0) {
                removeFromEpoll();
            }
            if (fdNow < 0) {
                return;
            }
            if (wanted == 0) {
                removeFromEpoll();
            } else if (fd < 0) {
                worker.epollCtl(UcxNative.EPOLL_CTL_ADD, fdNow, wanted);
                fd = fdNow;
                registrationsByFd.put(fd, this);
            } else if (events != wanted) {
                worker.epollCtl(UcxNative.EPOLL_CTL_MOD, fd, wanted);
            }
            events = wanted;
        }

        /** Must run before the socket is closed or handed over, so that its number can be reused. */
        void removeFromEpoll() {
            if (fd < 0) {
                return;
            }
            try {
                worker.epollCtl(UcxNative.EPOLL_CTL_DEL, fd, 0);
            } catch (IOException e) {
                logger.debug("epoll_ctl(DEL) failed for fd {}", fd, e);
            }
            registrationsByFd.remove(fd);
            fd = -1;
            events = 0;
        }

        /**
         * This handle's socket carries a plain TCP connection (see {@link UcxIoHandler#plainSockets}); returns what
         * the loop's plain connections lay their writes out in, one at a time.
         */
        UcxPlainGather watchPlainSocket() {
            if (!plainSocket) {
                plainSocket = true;
                plainSockets++;
            }
            UcxPlainGather gather = plainGather;
            if (gather == null) {
                gather = new UcxPlainGather();
                plainGather = gather;
            }
            return gather;
        }

        /** The plain TCP connection of this handle's socket is closed, or the handle leaves the loop. */
        void plainSocketGone() {
            if (plainSocket) {
                plainSocket = false;
                plainSockets--;
            }
        }

        /** Binds a UCX connection of this handle; completions then arrive as {@link UcxIoEvent#isCompletion()}. */
        int bindConnection() throws IOException {
            connectionIndex = worker.bindConnection(this);
            return connectionIndex;
        }

        void unbindConnection() {
            if (connectionIndex >= 0) {
                worker.unbindConnection(connectionIndex);
                connectionIndex = -1;
            }
        }

        void dispatchCompletions(UcxIoEvent ioEvent) {
            handle.handle(this, ioEvent.completions());
        }

        UcxWorker worker() {
            return worker;
        }

        /** The handler this registration belongs to; for tests. */
        UcxIoHandler handler() {
            return UcxIoHandler.this;
        }

        /** A same-host peer of this handle vanished without closing: see {@link UcxSharedMemoryProbe}. */
        void sameHostPeerVanished() {
            sharedMemoryProbe.sameHostPeerVanished();
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public boolean cancel() {
            if (!valid) {
                return false;
            }
            valid = false;
            if (executor.isExecutorThread(Thread.currentThread())) {
                cancel0();
            } else {
                executor.execute(this::cancel0);
            }
            return true;
        }

        private void cancel0() {
            removeFromEpoll();
            plainSocketGone();
            unbindConnection();
            if (registrations.remove(this)) {
                handle.unregistered();
            }
            // Before Netty counts this registration gone: it may have been the last one.
            suspensionGuard.check();
        }

        void closeHandle() {
            try {
                handle.close();
            } catch (Exception e) {
                logger.debug("Exception while closing {}", handle, e);
            }
            cancel();
        }
    }
}
