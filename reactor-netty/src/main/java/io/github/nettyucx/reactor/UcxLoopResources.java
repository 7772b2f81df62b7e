/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.loop.UcxIoHandlerConfig;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.Future;
import io.netty.util.internal.ObjectUtil;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reactor Netty's event loops and channels on UCX: a {@link LoopResources} whose groups are
 * {@link UcxEventLoopGroup}s and whose channels are UCX channels, for {@code HttpServer}, {@code HttpClient},
 * {@code TcpServer} and {@code TcpClient}:
 * <pre>{@code
 * LoopResources loops = UcxLoopResources.create("my-app");
 * DisposableServer server = HttpServer.create().runOn(loops).handle(...).bindNow();
 * HttpClient client = HttpClient.create().runOn(loops);
 * }</pre>
 * or for every server and client that uses Reactor Netty's global resources:
 * {@code HttpResources.set(UcxLoopResources.create("my-app"))}.
 *
 * <p>The groups are made at their first use and sized as Reactor Netty's own: {@code onServer} has
 * {@link LoopResources#DEFAULT_IO_WORKER_COUNT} loops ({@code -Dreactor.netty.ioWorkerCount}); {@code onServerSelect}
 * is the same group unless a selector count is given ({@code -Dreactor.netty.ioSelectCount}); {@code onClient} is
 * the server group, colocated as Reactor Netty's default ({@link LoopResources#colocate}): a client called from an
 * event loop connects on that loop. Their threads are daemons unless asked otherwise, and {@link #disposeLater}
 * shuts them down.
 *
 * <p>A server or client that asks for no native transport ({@code runOn(loops, false)}, or every one with
 * {@code -Dreactor.netty.native=false}) calls these methods with {@code useNative} false and gets NIO groups of
 * the same sizes instead, with threads named {@code <prefix>-nio-<n>}, and NIO channels: what Reactor Netty's own
 * {@code LoopResources} gives it then.
 *
 * <p>{@link #onChannel} and {@link #onChannelClass} answer with {@code UcxSocketChannel},
 * {@code UcxServerSocketChannel} and {@code UcxDatagramChannel} for groups of UCX loops, and as Reactor Netty's
 * default for any other group (epoll, NIO...), so that a server or client given its own group still runs. Client
 * channels fall back to plain TCP ({@code UcxChannelOption.PLAIN_TCP_FALLBACK}) for servers that do not speak
 * netty-ucx, so that an {@code HttpClient} on these loops reaches any HTTP server; a client can turn that off with
 * {@code .option(UcxChannelOption.PLAIN_TCP_FALLBACK, false)}.
 *
 * <p>{@link #withIoHandlerConfig} and {@link #withClientOption} give copies whose UCX loops wait as configured and
 * whose client channels start with further options (the Spring Boot starter builds its resources so).
 */
public final class UcxLoopResources implements LoopResources {
    private final String prefix;
    private final int selectCount;
    private final int workerCount;
    private final boolean daemon;
    private final boolean colocate;
    /** The UCX loops' settings. */
    private final UcxIoHandlerConfig ioHandlerConfig;
    /** Set on every UCX client channel before the bootstrap's own options, in this order. */
    private final Map<ChannelOption<?>, Object> clientOptions;
    /** Numbers the threads of all the groups, as Reactor Netty's own resources do. */
    private final AtomicLong threadCounter = new AtomicLong();

    private final TransportGroups ucx;
    private final TransportGroups nio;
    private boolean disposed;

    private UcxLoopResources(String prefix, int selectCount, int workerCount, boolean daemon, boolean colocate,
                             UcxIoHandlerConfig ioHandlerConfig, Map<ChannelOption<?>, Object> clientOptions) {
        this.prefix = prefix;
        this.selectCount = selectCount;
        this.workerCount = workerCount;
        this.daemon = daemon;
        this.colocate = colocate;
        this.ioHandlerConfig = ioHandlerConfig;
        this.clientOptions = clientOptions;
        ucx = new TransportGroups("ucx", selectCount, workerCount, colocate, this::newUcxGroup);
        nio = new TransportGroups("nio", selectCount, workerCount, colocate, this::newNioGroup);
    }

    /**
     * Loop resources sized as Reactor Netty's {@code LoopResources.create(prefix)}: {@link #DEFAULT_IO_WORKER_COUNT}
     * worker loops, which also accept unless {@link #DEFAULT_IO_SELECT_COUNT} is set, on daemon threads named
     * after {@code prefix}.
     */
    public static UcxLoopResources create(String prefix) {
        return create(prefix, DEFAULT_IO_SELECT_COUNT, DEFAULT_IO_WORKER_COUNT, true, true);
    }

    /** Loop resources with {@code workerCount} loops that also accept. */
    public static UcxLoopResources create(String prefix, int workerCount, boolean daemon) {
        return create(prefix, -1, checkWorkers(workerCount), daemon, true);
    }

    /** Loop resources with {@code workerCount} loops that serve connections and {@code selectCount} that accept. */
    public static UcxLoopResources create(String prefix, int selectCount, int workerCount, boolean daemon) {
        return create(prefix, ObjectUtil.checkPositive(selectCount, "selectCount"), workerCount, daemon, true);
    }

    /**
     * Loop resources with {@code workerCount} loops that serve connections and {@code selectCount} that accept (-1:
     * the worker loops accept too). With {@code colocate} false, clients are given the worker group as it is, and
     * connect on its next loop even when called from one of its loops.
     */
    public static UcxLoopResources create(String prefix, int selectCount, int workerCount, boolean daemon,
                                          boolean colocate) {
        ObjectUtil.checkNonEmpty(prefix, "prefix");
        checkWorkers(workerCount);
        if (selectCount < 1 && selectCount != -1) {
            throw new IllegalArgumentException("selectCount must be positive, or -1 for the worker loops to accept, "
                    + "was " + selectCount);
        }
        return new UcxLoopResources(prefix, selectCount, workerCount, daemon, colocate, new UcxIoHandlerConfig(),
                Collections.emptyMap());
    }

    /**
     * A copy of these resources (with groups of its own, made at their first use) whose UCX loops run with
     * {@code config}: wait strategy, spin, connections per loop. Without it they run with the process's defaults.
     */
    public UcxLoopResources withIoHandlerConfig(UcxIoHandlerConfig config) {
        ObjectUtil.checkNotNull(config, "config");
        return new UcxLoopResources(prefix, selectCount, workerCount, daemon, colocate, config, clientOptions);
    }

    /**
     * A copy of these resources whose UCX client channels get {@code option} set to {@code value} when they are
     * made, as {@code PLAIN_TCP_FALLBACK} is: a client's own {@code .option(...)} still wins, being applied later.
     * The value is checked by the channel, when a client is made.
     */
    public <T> UcxLoopResources withClientOption(ChannelOption<T> option, T value) {
        ObjectUtil.checkNotNull(option, "option");
        ObjectUtil.checkNotNull(value, "value");
        Map<ChannelOption<?>, Object> options = new LinkedHashMap<>(clientOptions);
        options.put(option, value);
        return new UcxLoopResources(prefix, selectCount, workerCount, daemon, colocate, ioHandlerConfig,
                Collections.unmodifiableMap(options));
    }

    /** The settings the UCX loops of these resources are made with. */
    public UcxIoHandlerConfig ioHandlerConfig() {
        return ioHandlerConfig;
    }

    private static int checkWorkers(int workerCount) {
        return ObjectUtil.checkPositive(workerCount, "workerCount");
    }

    /** The group whose loops serve accepted connections: UCX, or NIO when {@code useNative} is false. */
    @Override
    public synchronized EventLoopGroup onServer(boolean useNative) {
        return groups(useNative).server();
    }

    /** The group whose loops accept: the server group, unless a selector count was given. */
    @Override
    public synchronized EventLoopGroup onServerSelect(boolean useNative) {
        return groups(useNative).select();
    }

    /** The server group, colocated unless created with {@code colocate} false. */
    @Override
    public synchronized EventLoopGroup onClient(boolean useNative) {
        return groups(useNative).client();
    }

    @Override
    public <C extends Channel> C onChannel(Class<C> channelType, EventLoopGroup group) {
        if (UcxChannelTypes.isUcx(group)) {
            return UcxChannelTypes.newChannel(channelType, clientOptions);
        }
        return LoopResources.super.onChannel(channelType, group);
    }

    @Override
    public <C extends Channel> Class<? extends C> onChannelClass(Class<C> channelType, EventLoopGroup group) {
        if (UcxChannelTypes.isUcx(group)) {
            return UcxChannelTypes.channelClass(channelType);
        }
        return LoopResources.super.onChannelClass(channelType, group);
    }

    /**
     * Shuts the groups made so far down, each loop closing its channels once no task came for {@code quietPeriod},
     * or at the latest after {@code timeout}; the returned {@link Mono} completes when they have terminated.
     * Asking for a group afterwards is an error: the groups are not made again.
     */
    @Override
    public Mono<Void> disposeLater(Duration quietPeriod, Duration timeout) {
        return Mono.defer(() -> {
            List<EventLoopGroup> groups = new ArrayList<>(4);
            synchronized (this) {
                if (!disposed) {
                    disposed = true;
                    groups.addAll(ucx.made());
                    groups.addAll(nio.made());
                }
            }
            List<Mono<Void>> terminations = new ArrayList<>(groups.size());
            for (EventLoopGroup group : groups) {
                Future<?> termination = group.shutdownGracefully(quietPeriod.toMillis(), timeout.toMillis(),
                        TimeUnit.MILLISECONDS);
                terminations.add(Mono.create(sink -> termination.addListener(done -> {
                    if (done.isSuccess()) {
                        sink.success();
                    } else {
                        sink.error(done.cause());
                    }
                })));
            }
            return Mono.when(terminations).timeout(timeout, Mono.error(() -> new IllegalStateException(
                    this + ": the event loops did not terminate within " + timeout.toMillis() + " ms")));
        });
    }

    @Override
    public synchronized boolean isDisposed() {
        return disposed;
    }

    @Override
    public String toString() {
        return "UcxLoopResources{prefix=" + prefix + ", selectCount=" + selectCount + ", workerCount=" + workerCount
                + ", daemon=" + daemon + ", colocate=" + colocate + ", " + ioHandlerConfig
                + (clientOptions.isEmpty() ? "" : ", clientOptions=" + clientOptions) + '}';
    }

    /** The groups of the transport asked for. Called with the monitor held. */
    private TransportGroups groups(boolean useNative) {
        if (disposed) {
            throw new IllegalStateException(this + " is disposed: its event loops are shut down; create new "
                    + "UcxLoopResources");
        }
        return useNative ? ucx : nio;
    }

    private EventLoopGroup newUcxGroup(int loops, String kind) {
        Ucx.ensureAvailability();
        return new UcxEventLoopGroup(loops, threadFactory(kind), ioHandlerConfig);
    }

    /** As Reactor Netty's own resources make their NIO groups. */
    private EventLoopGroup newNioGroup(int loops, String kind) {
        return new MultiThreadIoEventLoopGroup(loops, threadFactory(kind), NioIoHandler.newFactory());
    }

    private LoopThreadFactory threadFactory(String kind) {
        return new LoopThreadFactory(prefix + "-" + kind, daemon, threadCounter);
    }
}
