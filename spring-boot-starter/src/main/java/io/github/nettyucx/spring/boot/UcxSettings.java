/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.reactor.UcxLoopResources;
import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.loop.UcxIoHandlerConfig;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.loop.WaitStrategy;
import io.netty.channel.ChannelOption;
import reactor.netty.http.server.HttpServer;

import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link UcxProperties} turned into what the transport takes: a {@link UcxIoHandlerConfig} for the loops, and channel
 * options for client connections, server connections and the listening channel. Made once at start-up, so that a
 * value the transport refuses (a negative spin, trust rules that do not parse) fails the start, naming its property.
 * Only the properties that were set become options: the others keep the transport's defaults, including those that
 * JVM system properties choose.
 */
final class UcxSettings {
    private final UcxIoHandlerConfig ioHandlerConfig;
    /** Options of every UCX connection, client or server side. */
    private final Map<ChannelOption<?>, Object> connectionOptions = new LinkedHashMap<>();
    /** Options of a client connection only. */
    private final Map<ChannelOption<?>, Object> clientOptions = new LinkedHashMap<>();
    /** Options of an accepted connection only. */
    private final Map<ChannelOption<?>, Object> childOptions = new LinkedHashMap<>();
    /** Options of the listening channel. */
    private final Map<ChannelOption<?>, Object> serverOptions = new LinkedHashMap<>();

    UcxSettings(UcxProperties properties) {
        ioHandlerConfig = ioHandlerConfig(properties);
        put(connectionOptions, UcxChannelOption.UCX_RECV_WINDOW, properties.getReceiveWindow());
        if (properties.getReceiveUnit() != null) {
            long bytes = properties.getReceiveUnit().toBytes();
            if (bytes > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("netty.ucx.receive-unit=" + properties.getReceiveUnit()
                        + " is larger than a receive slot can be");
            }
            put(connectionOptions, UcxChannelOption.UCX_RECV_UNIT, (int) bytes);
        }
        put(connectionOptions, UcxChannelOption.UCX_SEND_SLOTS, properties.getSendSlots());
        put(connectionOptions, UcxChannelOption.RECEIVE_IN_PLACE, properties.getReceiveInPlace());
        if (!properties.getTrust().isEmpty()) {
            put(connectionOptions, UcxChannelOption.TRUST, trust(String.join(",", properties.getTrust())));
        }
        put(clientOptions, UcxChannelOption.PLAIN_TCP_FALLBACK, properties.isPlainTcpFallback());
        if (properties.getClientBytesWait() != null) {
            put(childOptions, UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS,
                    millis("netty.ucx.client-bytes-wait", properties.getClientBytesWait()));
        }
        if (properties.getHandshakeTimeout() != null) {
            int timeout = millis("netty.ucx.handshake-timeout", properties.getHandshakeTimeout());
            if (timeout <= 0) {
                throw new IllegalArgumentException("netty.ucx.handshake-timeout=" + properties.getHandshakeTimeout()
                        + " must be at least 1 ms: a stalled handshake must not hold its slot forever");
            }
            put(childOptions, UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS, timeout);
        }
        put(serverOptions, UcxChannelOption.MAX_PENDING_HANDSHAKES, properties.getMaxPendingHandshakes());
        put(serverOptions, UcxChannelOption.MAX_PENDING_HANDSHAKES_PER_ADDRESS,
                properties.getMaxPendingHandshakesPerAddress());
    }

    UcxIoHandlerConfig ioHandlerConfig() {
        return ioHandlerConfig;
    }

    /** Options of a client connection, in the order they are set. */
    Map<ChannelOption<?>, Object> clientOptions() {
        Map<ChannelOption<?>, Object> options = new LinkedHashMap<>(connectionOptions);
        options.putAll(clientOptions);
        return Collections.unmodifiableMap(options);
    }

    /** Options of an accepted connection, in the order they are set. */
    Map<ChannelOption<?>, Object> childOptions() {
        Map<ChannelOption<?>, Object> options = new LinkedHashMap<>(connectionOptions);
        options.putAll(childOptions);
        return Collections.unmodifiableMap(options);
    }

    Map<ChannelOption<?>, Object> serverOptions() {
        return Collections.unmodifiableMap(serverOptions);
    }

    /** {@code loops} with these loop settings, whose client channels start with {@link #clientOptions()}. */
    UcxLoopResources configureLoops(UcxLoopResources loops) {
        UcxLoopResources configured = loops.withIoHandlerConfig(ioHandlerConfig);
        for (Map.Entry<ChannelOption<?>, Object> e : clientOptions().entrySet()) {
            configured = configured.withClientOption(option(e.getKey()), e.getValue());
        }
        return configured;
    }

    /** {@code server} with {@link #serverOptions()} on its listening channel and {@link #childOptions()}. */
    HttpServer configureServer(HttpServer server) {
        HttpServer configured = server;
        for (Map.Entry<ChannelOption<?>, Object> e : serverOptions.entrySet()) {
            configured = configured.option(option(e.getKey()), e.getValue());
        }
        for (Map.Entry<ChannelOption<?>, Object> e : childOptions().entrySet()) {
            configured = configured.childOption(option(e.getKey()), e.getValue());
        }
        return configured;
    }

    private static UcxIoHandlerConfig ioHandlerConfig(UcxProperties properties) {
        UcxIoHandlerConfig config = new UcxIoHandlerConfig();
        WaitStrategy strategy = properties.getWaitStrategy();
        Duration spin = properties.getSpin();
        if (strategy != null || spin != null) {
            if (spin != null && spin.isNegative()) {
                throw new IllegalArgumentException("netty.ucx.spin=" + spin + " is negative");
            }
            config = config.waitStrategy(strategy != null ? strategy : config.waitStrategy(),
                    spin != null ? spin.toNanos() : config.spinNanos(), TimeUnit.NANOSECONDS);
        }
        Integer maxConnections = properties.getMaxConnectionsPerLoop();
        if (maxConnections != null) {
            try {
                config = config.maxConnectionsPerLoop(maxConnections);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("netty.ucx.max-connections-per-loop=" + maxConnections + ": "
                        + e.getMessage(), e);
            }
        }
        return config;
    }

    private static UcxTrust trust(String rules) {
        try {
            return UcxTrust.parse(rules);
        } catch (IOException | RuntimeException e) {
            // Not the rules themselves: they may hold a secret, and this message goes to the log.
            throw new IllegalArgumentException("netty.ucx.trust: " + e.getMessage(), e);
        }
    }

    private static int millis(String property, Duration duration) {
        if (duration.isNegative() || duration.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(property + "=" + duration + " is out of range");
        }
        return (int) duration.toMillis();
    }

    private static void put(Map<ChannelOption<?>, Object> options, ChannelOption<?> option, Object value) {
        if (value != null) {
            options.put(option, value);
        }
    }

    @SuppressWarnings("unchecked")
    private static ChannelOption<Object> option(ChannelOption<?> option) {
        return (ChannelOption<Object>) option;
    }
}
