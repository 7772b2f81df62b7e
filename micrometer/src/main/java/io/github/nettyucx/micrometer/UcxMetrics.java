/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.micrometer;

import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.github.nettyucx.buffer.UcxByteBufAllocatorMetric;
import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxTransportMetrics;
import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.SetupFailure;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The UCX transport's counters ({@link UcxTransportMetrics}) and the memory of its allocators
 * ({@link UcxByteBufAllocator#DEFAULT} and the pool of receive buffers) as Micrometer meters. The counters are
 * function counters over the transport's own, so a registry reads them when it publishes and the transport does
 * nothing more for them:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #CONNECTIONS_OPENED}</td><td>{@code data.path}: {@code ucx}, {@code tcp-data-path},
 *       {@code plain-tcp}</td><td>connections that became active, clients and accepted</td></tr>
 *   <tr><td>{@value #SETUP_FAILURES}</td><td>{@code reason}: {@code untrusted}, {@code no-transport},
 *       {@code protocol}, {@code timeout},
 *       {@code refused}, {@code io}, {@code closed}</td><td>connections that closed before becoming active</td></tr>
 *   <tr><td>{@value #LOOP_SLEEPS}</td><td></td><td>times an event loop slept in {@code epoll_wait}</td></tr>
 *   <tr><td>{@value #LOOP_WAKEUPS}</td><td></td><td>writes of other threads that woke a sleeping loop</td></tr>
 *   <tr><td>{@value #LOOP_CONTENTION_HOLDS}</td><td></td><td>periods of sleeping at once beside busy
 *       threads</td></tr>
 *   <tr><td>{@value #WRITE_STALLS}</td><td>{@code cause}: {@code credits}, {@code send-slots}</td><td>flushes that
 *       stopped to wait for the peer's credits or for a send slot</td></tr>
 *   <tr><td>{@value #STRAY_MESSAGES}</td><td></td><td>UCX messages no receive wanted, dropped</td></tr>
 *   <tr><td>{@value #ENDPOINTS_CREATED}</td><td></td><td>connections given a UCP endpoint (new or shared)</td></tr>
 *   <tr><td>{@value #HANDSHAKES_SHED}</td><td></td><td>pending handshakes a server closed to admit newer
 *       connections, at its limits</td></tr>
 *   <tr><td>{@value #DOWNGRADES}</td><td>{@code cause}: {@code client-fallback}, {@code silent-client}</td><td>
 *       connections that went plain TCP because the peer's netty-ucx handshake did not come: a client's
 *       fallback, a server's silent client</td></tr>
 *   <tr><td>{@value #ALLOCATOR_USED}</td><td>{@code allocator}: {@code default}, {@code receive};
 *       {@code memory.type}: {@code direct}, {@code heap}</td><td>bytes mapped (direct) or of live heap
 *       buffers</td></tr>
 *   <tr><td>{@value #ALLOCATOR_ACTIVE}</td><td>{@code allocator}</td><td>bytes live direct buffers hold</td></tr>
 *   <tr><td>{@value #ALLOCATOR_MAX}</td><td>{@code allocator}</td><td>the limit on mapped bytes</td></tr>
 *   <tr><td>{@value #ALLOCATOR_UNREGISTERED}</td><td>{@code allocator}</td><td>mapped bytes that UCX could not
 *       register</td></tr>
 * </table>
 *
 * <p>Bind it once per registry: {@code new UcxMetrics().bindTo(registry)}, or declare it as a bean where Spring
 * Boot binds every {@link MeterBinder} bean. Reactor Netty publishes its own meters to
 * {@code io.micrometer.core.instrument.Metrics.globalRegistry}, to which this binds like to any other. Where UCX
 * cannot run, the counters are bound (they stay at zero) and the allocators' gauges are not, since the
 * allocators cannot exist there.
 */
public final class UcxMetrics implements MeterBinder {
    /** Connections that became active, by data path. */
    public static final String CONNECTIONS_OPENED = "ucx.connections.opened";
    /** Connections whose setup failed, by reason. */
    public static final String SETUP_FAILURES = "ucx.connections.setup.failures";
    /** Sleeps of the event loops in {@code epoll_wait}. */
    public static final String LOOP_SLEEPS = "ucx.eventloop.sleeps";
    /** Eventfd writes that woke a sleeping loop for another thread's task. */
    public static final String LOOP_WAKEUPS = "ucx.eventloop.wakeups";
    /** Periods in which a loop slept at once instead of spinning, beside busy threads. */
    public static final String LOOP_CONTENTION_HOLDS = "ucx.eventloop.contention.holds";
    /** Flushes that stopped to wait for credits or a send slot, by cause. */
    public static final String WRITE_STALLS = "ucx.write.stalls";
    /** UCX messages that no receive wanted, dropped. */
    public static final String STRAY_MESSAGES = "ucx.messages.stray.dropped";
    /** Connections given a UCP endpoint: a new one, or the one their worker already had to the peer's worker. */
    public static final String ENDPOINTS_CREATED = "ucx.endpoints.created";
    /** {@link UcxTransportMetrics#handshakesShed()}. */
    public static final String HANDSHAKES_SHED = "ucx.handshakes.shed";
    /** {@link UcxTransportMetrics#plainTcpFallbacks()} and {@link UcxTransportMetrics#silentClientsServedAsPlain()}. */
    public static final String DOWNGRADES = "ucx.connections.downgraded";
    /** Bytes of UCX messages, by direction: {@link UcxTransportMetrics#ucxBytesSent()} and its received twin. */
    public static final String BYTES = "ucx.bytes";
    /** Bytes an allocator has mapped (direct) or its live heap buffers hold (heap). */
    public static final String ALLOCATOR_USED = "ucx.allocator.memory.used";
    /** Bytes of the blocks live direct buffers hold. */
    public static final String ALLOCATOR_ACTIVE = "ucx.allocator.memory.active";
    /** The limit on an allocator's mapped bytes. */
    public static final String ALLOCATOR_MAX = "ucx.allocator.memory.max";
    /** Mapped bytes whose registration with UCX failed. */
    public static final String ALLOCATOR_UNREGISTERED = "ucx.allocator.memory.unregistered";

    private final Iterable<Tag> tags;

    /** Meters without tags of their own beyond those above. */
    public UcxMetrics() {
        this(Tags.empty());
    }

    /** Meters that carry {@code tags} besides their own. */
    public UcxMetrics(Iterable<Tag> tags) {
        this.tags = tags;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (DataPath path : DataPath.values()) {
            counter(registry, CONNECTIONS_OPENED, "Connections of the UCX transport that became active",
                    Tags.of("data.path", tagValue(path.name())), () -> UcxTransportMetrics.connectionsOpened(path));
        }
        for (SetupFailure reason : SetupFailure.values()) {
            counter(registry, SETUP_FAILURES, "Connections of the UCX transport that closed before becoming active",
                    Tags.of("reason", tagValue(reason.name())), () -> UcxTransportMetrics.setupFailures(reason));
        }
        counter(registry, LOOP_SLEEPS, "Sleeps of the UCX event loops in epoll_wait", Tags.empty(),
                () -> UcxTransportMetrics.eventLoopSleeps());
        counter(registry, LOOP_WAKEUPS, "Writes of other threads that woke a sleeping UCX event loop", Tags.empty(),
                () -> UcxTransportMetrics.eventLoopWakeupWrites());
        counter(registry, LOOP_CONTENTION_HOLDS, "Periods in which a UCX event loop slept at once beside busy threads",
                Tags.empty(), () -> UcxTransportMetrics.eventLoopContentionHolds());
        counter(registry, WRITE_STALLS, "Flushes that waited for the peer's credits", Tags.of("cause", "credits"),
                () -> UcxTransportMetrics.creditStalls());
        counter(registry, WRITE_STALLS, "Flushes that waited for a free send slot", Tags.of("cause", "send-slots"),
                () -> UcxTransportMetrics.sendSlotStalls());
        counter(registry, STRAY_MESSAGES, "UCX messages that no receive wanted, dropped", Tags.empty(),
                () -> UcxTransportMetrics.strayMessagesDropped());
        counter(registry, ENDPOINTS_CREATED, "Connections given a UCP endpoint, new or shared", Tags.empty(),
                () -> UcxTransportMetrics.endpointsCreated());
        counter(registry, HANDSHAKES_SHED, "Pending handshakes a server closed to admit newer connections",
                Tags.empty(), () -> UcxTransportMetrics.handshakesShed());
        counter(registry, DOWNGRADES, "Client connects that fell back to plain TCP", Tags.of("cause",
                "client-fallback"), () -> UcxTransportMetrics.plainTcpFallbacks());
        counter(registry, DOWNGRADES, "Accepted clients that sent nothing and were served as plain TCP",
                Tags.of("cause", "silent-client"), () -> UcxTransportMetrics.silentClientsServedAsPlain());
        counter(registry, BYTES, "Bytes sent in UCX messages", Tags.of("direction", "sent"),
                () -> UcxTransportMetrics.ucxBytesSent());
        counter(registry, BYTES, "Bytes of UCX messages received", Tags.of("direction", "received"),
                () -> UcxTransportMetrics.ucxBytesReceived());
        if (Ucx.isAvailable()) {
            allocator(registry, "default", UcxByteBufAllocator.DEFAULT.metric());
            allocator(registry, "receive", UcxByteBufAllocator.receiveBuffersMetric());
        }
    }

    private void allocator(MeterRegistry registry, String name, UcxByteBufAllocatorMetric metric) {
        Tags allocator = Tags.of("allocator", name);
        gauge(registry, ALLOCATOR_USED, "Bytes the allocator has mapped", allocator.and("memory.type", "direct"),
                metric, UcxByteBufAllocatorMetric::usedDirectMemory);
        gauge(registry, ALLOCATOR_USED, "Bytes of the allocator's live heap buffers",
                allocator.and("memory.type", "heap"), metric, UcxByteBufAllocatorMetric::usedHeapMemory);
        gauge(registry, ALLOCATOR_ACTIVE, "Bytes the allocator's live direct buffers hold", allocator, metric,
                UcxByteBufAllocatorMetric::activeDirectMemory);
        gauge(registry, ALLOCATOR_MAX, "The limit on the bytes the allocator maps", allocator, metric,
                UcxByteBufAllocatorMetric::maxDirectMemory);
        gauge(registry, ALLOCATOR_UNREGISTERED, "Bytes the allocator mapped that UCX could not register", allocator,
                metric, UcxByteBufAllocatorMetric::unregisteredDirectMemory);
    }

    /**
     * A registry holds a function counter's object weakly, and a binder is often not kept after binding: the
     * counters hang on the class of the transport's counters, which lives as long as the transport does.
     */
    private void counter(MeterRegistry registry, String name, String description, Tags own, LongSupplier count) {
        ToDoubleFunction<Class<UcxTransportMetrics>> read = c -> count.getAsLong();
        FunctionCounter.builder(name, UcxTransportMetrics.class, read)
                .description(description)
                .tags(own.and(tags))
                .register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, Tags own,
                       UcxByteBufAllocatorMetric metric, ToLongFunction<UcxByteBufAllocatorMetric> bytes) {
        Gauge.builder(name, metric, m -> bytes.applyAsLong(m))
                .description(description)
                .baseUnit(BaseUnits.BYTES)
                .tags(own.and(tags))
                .register(registry);
    }

    private static String tagValue(String enumName) {
        return enumName.toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
