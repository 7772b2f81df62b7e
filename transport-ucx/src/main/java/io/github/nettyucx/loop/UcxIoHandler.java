/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxProcess;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ThreadAwareExecutor;
import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link IoHandler} of a UCX event loop: one UCP worker per loop thread. {@link #run} makes UCX
 * progress, hands completions to channels, and when idle spins and/or arms the worker and sleeps
 * in epoll (over the worker's event fd, an eventfd for {@link #wakeup()}, a timerfd for scheduled
 * tasks and the connections' side-channel sockets), as {@link UcxIdlePolicy} decides ({@link #awaitWork} is where
 * the loop waits). It sees channels only as {@link UcxIoHandle}s.
 * After a same-host peer vanished, {@link UcxSharedMemoryProbe} checks that the worker's shared-memory
 * receive queue still delivers, and has a worker whose queue is stuck replaced.
 *
 * <p>Its loop may change threads: in an auto-scaling group ({@code AutoScalingEventExecutorChooserFactory})
 * Netty suspends an idle loop, which has no registrations, and resumes it on a new thread when a task
 * arrives. Everything the handler owns goes along (see {@link UcxWorker}); a scheduled check
 * ({@link #keepRunningWhileWorkerBusy()}) keeps the loop from suspending while closed connections still need its
 * worker, and each run reports the time
 * it spent on I/O, not waiting, through {@link IoHandlerContext#reportActiveIoTime}, which is what the group
 * scales on.
 */
public final class UcxIoHandler implements IoHandler {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxIoHandler.class);
    /** While busy, side-channel sockets are polled at least this often. */
    private static final long BUSY_SOCKET_POLL_NANOS = 50_000;
    /** What {@link #spin} returns when it found no work. */
    private static final int NO_WORK = -1;
    /** {@link #awaitWork}, unbound: each handler binds it to itself ({@link #awaitWorkHandle}). */
    private static final MethodHandle AWAIT_WORK;

    static {
        try {
            AWAIT_WORK = MethodHandles.lookup().findVirtual(UcxIoHandler.class, "awaitWork",
                    MethodType.methodType(int.class, IoHandlerContext.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** Values of {@link #nextWakeupNanos}: the loop is awake, or sleeps with no deadline. */
    private static final long AWAKE = -1L;
    private static final long NO_DEADLINE = Long.MAX_VALUE;
    /**
     * How often a loop kept running for its worker looks again whether the worker is done. Closing connections
     * are reaped by the worker's own progress, so this only bounds how long the loop stays up after the last one.
     */
    private static final long WORKER_BUSY_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private final ThreadAwareExecutor executor;
    private final IntObjectMap<Registration> registrationsByFd = new IntObjectHashMap<>(64);
    private final List<Registration> registrations = new ArrayList<>();
    private final UcxIoEvent event = new UcxIoEvent();
    /** Eventfd writes of {@link #wakeup()} in this process: counted where the system call is made anyway. */
    private static final LongAdder WAKEUP_WRITES = new LongAdder();
    /** The process's loops' sleeps in the worker's wait (the metrics read them). */
    private static final LongAdder SLEEPS = new LongAdder();
    /** The same, of this handler only (tests look at one loop while others of the process run). */
    private final LongAdder wakeupWrites = new LongAdder();
    private final UcxSharedMemoryProbe sharedMemoryProbe = new UcxSharedMemoryProbe(new ProbedLoop());
    private final UcxIoHandlerConfig config;
    /** Decides how the loop waits when a run finds no work. */
    private final UcxIdlePolicy idlePolicy;
    /**
     * {@link #awaitWork} bound to this handler: called through this handle, which is no constant to the JIT, the wait
     * is compiled apart from the run. The idle policy and the spin change course (the start-up's end, the CPUs taken)
     * and each change has the JIT recompile the method that inlined them: the wait alone, then, not the run with the
     * dispatch, whose recompiles stretched a fresh loop's slow phase after the start-up (docs/benchmarks/short-path).
     */
    private final MethodHandle awaitWorkHandle;
    /**
     * The deadline of the loop's sleep while it sleeps, or is about to, else {@link #AWAKE}: {@link #wakeup()} writes
     * the eventfd only while it is set, and clears it, so that the next task writes nothing.
     */
    private final AtomicLong nextWakeupNanos = new AtomicLong(AWAKE);
    /**
     * Where the I/O work of the current run began: the start of the run, the end of the last empty spin round, or
     * the end of the wait. What follows is reported as active I/O time.
     */
    private long ioStartNanos;
    /** Events the loop's runs have handled so far: what the start-up is counted in. */
    private long work;
    /** Whether the loop's thread asked for a short scheduler slice. */
    private boolean shortSlice;
    /** Whether the check that keeps the loop running for its worker is scheduled. */
    private boolean workerBusyCheckScheduled;
    /**
     * Registrations whose socket carries a plain TCP connection: while there are any, the loop looks at its
     * sockets in every run and every spin round, as it makes UCX progress (a UCX connection's bytes arrive through
     * the worker, a plain one's only through the epoll set).
     */
    private int plainSockets;
    /** Of those, the TCP data paths of netty-ucx peers, which the loop spins for as for UCX connections. */
    private int spinningPlainSockets;
    /** The I/O vector and scratch memory of the loop's plain TCP connections; created with the first. */
    private UcxPlainGather plainGather;
    private UcxWorker worker;

    /**
     * Creates the loop's UCP worker at once (on the thread that builds the group), so that a worker
     * UCX cannot create fails the group's constructor instead of a loop thread later.
     */
    private UcxIoHandler(ThreadAwareExecutor executor, UcxIoHandlerConfig config) {
        this.executor = executor;
        this.config = config;
        idlePolicy = new UcxIdlePolicy(config, UcxProcess::hostRunnableThreads, UcxProcess.hostOnlineCpus(),
                System.nanoTime());
        awaitWorkHandle = AWAIT_WORK.bindTo(this);
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
        ensureAvailability();
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
        // and its descriptors simply carry on there; the new thread asks for the loop's time slice.
        shortSlice = false;
        requestSlice(idlePolicy.wantsShortSlice());
    }

    public UcxWorker worker() {
        return worker;
    }

    public UcxSharedMemoryProbe sharedMemoryProbe() {
        return sharedMemoryProbe;
    }

    /**
     * Whether the loop's connections are all plain TCP to peers that do not speak netty-ucx: nothing comes through
     * UCX, and spinning would take the core that the peers and the kernel's TCP processing need.
     */
    public boolean onlyPlainPeers() {
        return plainSockets > 0 && !hasSpinningPeers();
    }

    /** Whether the loop carries a peer it spins for: a UCX connection, or a TCP data path's socket. */
    boolean hasSpinningPeers() {
        return spinningPlainSockets > 0 || worker.boundConnections() > 0;
    }

    /** Whether the worker has work left that no registration stands for. */
    private boolean workerStillBusy() {
        return worker != null && (worker.hasClosingConnections() || sharedMemoryProbe.inFlight());
    }

    /**
     * Keeps the loop from being suspended while its worker still has work that no channel stands for: connections
     * whose channels closed but which still flush their last messages (ucx_linger.c), or a shared-memory probe.
     * An auto-scaling group suspends a loop with no registrations, tasks or scheduled tasks, and nothing would
     * progress its worker; Netty gives an {@code IoHandler} no say in that, but a scheduled task keeps the loop up.
     * Called where the loop may lose its last registration, and by the scheduled check itself.
     */
    private void keepRunningWhileWorkerBusy() {
        if (workerBusyCheckScheduled || !(executor instanceof EventExecutor) || !workerStillBusy()) {
            return;
        }
        EventExecutor loop = (EventExecutor) executor;
        if (loop.isShuttingDown()) {
            return;
        }
        workerBusyCheckScheduled = true;
        loop.schedule(() -> {
            workerBusyCheckScheduled = false;
            keepRunningWhileWorkerBusy();
        }, WORKER_BUSY_RECHECK_NANOS, TimeUnit.NANOSECONDS);
    }

    /** Whether the loop is kept running for its worker; for tests. */
    public boolean workerBusyCheckScheduled() {
        return workerBusyCheckScheduled;
    }

    @Override
    public int run(IoHandlerContext context) {
        try {
            sharedMemoryProbe.check();
            ioStartNanos = System.nanoTime();
            long socketsPolledBefore = worker.socketsPolledAt();
            int handled = processCompletions();
            if (handled == 0 && context.canBlock()) {
                // The wait only finds work, which is handled here: the loop's compiled code holds one copy of the
                // dispatch, not one in each way of waiting (docs/development.md#waiting).
                int sockets = awaitWorkApart(context);
                handled = worker.dispatchSockets(sockets, this) + processCompletions();
            }
            long now = System.nanoTime();
            handled += pollSocketsIfDue(socketsPolledBefore, now);
            worker.sweepIdleWindows(now);
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

    /** Calls {@link #awaitWork} through {@link #awaitWorkHandle}. */
    private int awaitWorkApart(IoHandlerContext context) throws IOException {
        try {
            return (int) awaitWorkHandle.invokeExact(context);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            // awaitWork throws nothing else.
            throw new IllegalStateException(t);
        }
    }

    /**
     * Where the loop waits: it spins and/or sleeps as {@link UcxIdlePolicy} decides, until the worker lists
     * completions, sockets have events or a task comes, and tells the policy how a spin that found nothing ended and
     * when work came. Returns the socket events found, for {@link UcxWorker#dispatchSockets}; the completions are
     * left to {@link #processCompletions}.
     */
    private int awaitWork(IoHandlerContext context) throws IOException {
        long idleStart = ioStartNanos;
        long spinNanos = idlePolicy.idleStarts(idleStart, work, worker.streamMarks(), hasSpinningPeers(),
                onlyPlainPeers());
        requestSlice(idlePolicy.wantsShortSlice());
        if (spinNanos == UcxIdlePolicy.FOREVER) {
            // Busy polling: one look at the worker and the sockets per run, and the run comes back at once.
            return worker.await(0);
        }
        int sockets = spinNanos > 0
                ? spin(context, spinNanos, idlePolicy.yieldAfterNanos(), idlePolicy.yieldRoundsMask()) : NO_WORK;
        if (sockets == NO_WORK) {
            sockets = sleep(context);
            idlePolicy.slept(System.nanoTime() - idleStart);
        }
        // The round that found the work started at ioStartNanos (a spin's last round, or the end of the wait).
        idlePolicy.idleEnded(ioStartNanos);
        return sockets;
    }

    /**
     * Polls the worker until work arrives or {@code spinNanos} are over. From {@code yieldAfterNanos} into the spin
     * ({@link UcxIdlePolicy#FOREVER}: never), the thread yields its core every
     * {@code roundsMask + 1} empty rounds: where more threads are busy than there are cores, a spinner that never
     * yields holds the core that the thread it waits for needs. Each empty round moves {@link #ioStartNanos}: the
     * round that finds work is the only active one. Returns the socket events found (0 for completions only), or
     * {@link #NO_WORK}.
     */
    private int spin(IoHandlerContext context, long spinNanos, long yieldAfterNanos, int roundsMask)
            throws IOException {
        long start = ioStartNanos;
        long spinUntil = start + spinNanos;
        long yieldFrom = start + Math.min(yieldAfterNanos, spinNanos);
        int rounds = 0;
        long now;
        do {
            worker.progress();
            if (worker.hasCompletions()) {
                return 0;
            }
            if (plainSockets > 0) {
                int sockets = worker.await(0);
                if (sockets != 0) {
                    // -1: UCX had events before the sockets were looked at.
                    return Math.max(0, sockets);
                }
            }
            if (!context.canBlock()) {
                return NO_WORK;
            }
            now = System.nanoTime();
            ioStartNanos = now;
            if (now - yieldFrom >= 0 && yieldAfterNanos != UcxIdlePolicy.FOREVER && (++rounds & roundsMask) == 0) {
                Thread.yield();
                // A yield may last a time slice, spent waiting.
                ioStartNanos = System.nanoTime();
            }
        } while (now - spinUntil < 0);
        int sockets = worker.await(0);
        return sockets == 0 ? NO_WORK : Math.max(0, sockets);
    }

    /**
     * Sleeps in the worker's epoll wait until work, a task or the next deadline. Publishes the deadline before
     * re-checking {@link IoHandlerContext#canBlock()}: a task added after that check sees it in {@link #wakeup()} and
     * writes the eventfd. Returns the socket events found (-1 when UCX had events before the sockets were looked at).
     */
    private int sleep(IoHandlerContext context) throws IOException {
        if (!context.canBlock()) {
            // Work came while the loop spun: it does not sleep, so it publishes no deadline either, which would
            // have tasks from other threads write the eventfd in the meantime for nothing.
            return 0;
        }
        long deadline = context.deadlineNanos();
        nextWakeupNanos.set(deadline == -1 ? NO_DEADLINE : deadline);
        int sockets = 0;
        try {
            if (context.canBlock()) {
                long timeout = deadline == -1 ? -1 : Math.max(1, context.delayNanos(System.nanoTime()));
                if (sharedMemoryProbe.inFlight() && (timeout < 0 || timeout > UcxSharedMemoryProbe.CHECK_NANOS)) {
                    timeout = UcxSharedMemoryProbe.CHECK_NANOS;
                }
                long sweepIn = worker.nanosToSweep(System.nanoTime());
                if (sweepIn >= 0 && (timeout < 0 || timeout > sweepIn)) {
                    // Idle connections park at the worker's next sweep, which an idle loop must not sleep through.
                    timeout = Math.max(1, sweepIn);
                }
                SLEEPS.increment();
                sockets = worker.await(timeout);
                ioStartNanos = worker.waitEndedAt();
            }
        } finally {
            nextWakeupNanos.set(AWAKE);
        }
        return sockets;
    }

    /**
     * Asks the kernel's scheduler for a short time slice while the loop sleeps at once in every wait, and gives it
     * back when it spins again (docs/settings.md#waiting): a loop woken with a shorter slice than the running
     * thread's preempts it at once (Linux 6.12+), and a spinning loop with a short one would be picked again at
     * every yield. A request is three system calls, made only on a change.
     */
    private void requestSlice(boolean wanted) {
        boolean ask = wanted && config.shortSliceNanos() > 0;
        if (ask == shortSlice) {
            return;
        }
        shortSlice = ask;
        long granted = UcxProcess.requestTimeSlice(ask ? config.shortSliceNanos() : 0);
        if (granted < 0 && logger.isDebugEnabled()) {
            logger.debug("{}: could not ask for a time slice (errno {}); the loop runs with what it had",
                    Thread.currentThread().getName(), -granted);
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
        return worker.dispatchSockets(worker.await(0), this);
    }

    /** Progress rounds per run, so that a flood of messages cannot starve the loop's tasks. */
    private static final int MAX_PROGRESS_ROUNDS = 16;

    /**
     * Hands the connections listed with completions to their channels, then makes UCX progress and hands on what it
     * lists, until a round brings nothing and lists nothing again. What a spin or a wait found is listed already: it
     * goes first, and the next progress round runs after the replies went out, not before. What is still listed
     * after the last round waits for the next run, after the loop's tasks.
     */
    int processCompletions() {
        int handled = 0;
        int rounds = 0;
        do {
            // The one call of the dispatch here: the compiled loop holds two copies of what it inlines (C2 peels the
            // first round), not three.
            handled += worker.dispatchCompletions(event);
            // One exit test for every bound (both counts are never below 0): the JIT sees it taken from the first
            // run, where a test of its own for the cap, first met in a flood, would have the loop recompiled then.
        } while (Math.min(worker.progress() + worker.listed(), MAX_PROGRESS_ROUNDS - rounds++) > 0);
        worker.releaseFreed();
        return handled;
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
        // The thread may belong to an executor of the application's that runs other work after the loop.
        requestSlice(false);
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
        if (executor.isExecutorThread(Thread.currentThread())) {
            return;
        }
        idlePolicy.taskFromOtherThread();
        if (nextWakeupNanos.getAndSet(AWAKE) != AWAKE) {
            worker.wake();
            WAKEUP_WRITES.increment();
            wakeupWrites.increment();
        }
    }

    /** The loop's idle policy; for tests, on the loop's thread. */
    UcxIdlePolicy idlePolicy() {
        return idlePolicy;
    }

    /** Throws when no worker can be made in this JVM, with the cause ({@link UcxWorker#unavailabilityCause()}). */
    public static void ensureAvailability() {
        Throwable cause = UcxWorker.unavailabilityCause();
        if (cause != null) {
            throw (Error) new UnsatisfiedLinkError("the UCX transport is unavailable: " + cause.getMessage())
                    .initCause(cause);
        }
    }

    /** Eventfd writes of every loop of the process since it started. */
    public static long processWakeupWrites() {
        return WAKEUP_WRITES.sum();
    }

    /** Sleeps of every loop of the process in its worker's wait since it started. */
    public static long processSleeps() {
        return SLEEPS.sum();
    }

    /** Eventfd writes of {@link #wakeup()} to this handler's loop so far. */
    long wakeupWrites() {
        return wakeupWrites.sum();
    }

    /** The handler a channel's seat belongs to; for tests. */
    public static UcxIoHandler of(UcxLoopSeat seat) {
        return ((Registration) seat).handler();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return UcxIoHandle.class.isAssignableFrom(handleType);
    }

    /**
     * A handle's registration, the loop's side of a channel's {@link UcxLoopSeat}: the epoll interest of its
     * socket, whether that socket is plain TCP ({@link #plainSockets}), and the index under which its UCX
     * connection reports completions. Used on the event-loop thread only, except {@link #cancel()}.
     */
    final class Registration implements UcxLoopSeat {
        final UcxIoHandle handle;
        private int fd = -1;
        private int events;
        private int connectionIndex = -1;
        private boolean plainSocket;
        private boolean spinningPlainSocket;
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
                Registration previous = registrationsByFd.get(fdNow);
                if (previous != null && previous != this) {
                    previous.forgetClosedSocket();
                }
                worker.epollCtl(UcxNative.EPOLL_CTL_ADD, fdNow, wanted);
                fd = fdNow;
                registrationsByFd.put(fd, this);
            } else if (events != wanted) {
                worker.epollCtl(UcxNative.EPOLL_CTL_MOD, fd, wanted);
            }
            events = wanted;
        }

        @Override
        public void removeFromEpoll() {
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
         * Another socket is being registered under this registration's number, so this one's socket was closed
         * under it (a native connection closes the side channel it owns), which took it out of epoll: this
         * registration lets go of the number without an epoll_ctl, which would now reach the other socket and
         * take it out of epoll, or change what it is watched for.
         */
        private void forgetClosedSocket() {
            fd = -1;
            events = 0;
        }

        @Override
        public UcxPlainGather watchPlainSocket(boolean spinning) {
            if (!plainSocket) {
                plainSocket = true;
                plainSockets++;
                spinningPlainSocket = spinning;
                spinningPlainSockets += spinning ? 1 : 0;
            }
            UcxPlainGather gather = plainGather;
            if (gather == null) {
                gather = new UcxPlainGather();
                plainGather = gather;
            }
            return gather;
        }

        @Override
        public void plainSocketGone() {
            if (plainSocket) {
                plainSocket = false;
                plainSockets--;
                spinningPlainSockets -= spinningPlainSocket ? 1 : 0;
                spinningPlainSocket = false;
            }
        }

        @Override
        public int bindConnection() throws IOException {
            connectionIndex = worker.bindConnection(this);
            return connectionIndex;
        }

        @Override
        public void unbindConnection() {
            if (connectionIndex >= 0) {
                worker.unbindConnection(connectionIndex);
                connectionIndex = -1;
            }
        }

        void dispatchCompletions(UcxIoEvent ioEvent) {
            handle.handle(this, ioEvent.completions());
        }

        @Override
        public UcxWorker worker() {
            return worker;
        }

        UcxIoHandler handler() {
            return UcxIoHandler.this;
        }

        @Override
        public void sameHostPeerVanished() {
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
            keepRunningWhileWorkerBusy();
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
