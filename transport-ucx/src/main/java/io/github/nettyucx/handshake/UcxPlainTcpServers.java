/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.netty.util.internal.SystemPropertyUtil;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The server addresses that did not answer a netty-ucx hello, remembered for a while by clients with
 * {@code UcxChannelOption.PLAIN_TCP_FALLBACK}: their next connections go plain at once instead of probing again.
 * Bounded in size and age ({@code -Dio.github.nettyucx.plainTcpFallback.rememberMillis},
 * {@code -Dio.github.nettyucx.plainTcpFallback.rememberMax}; docs/settings.md), so that a server that moves to
 * netty-ucx is found again. Shared by every event loop of the process.
 */
public final class UcxPlainTcpServers {
    private static final long REMEMBER_NANOS = TimeUnit.MILLISECONDS.toNanos(Math.max(0,
            SystemPropertyUtil.getLong("io.github.nettyucx.plainTcpFallback.rememberMillis", 60_000)));
    private static final int REMEMBER_MAX = Math.max(0,
            SystemPropertyUtil.getInt("io.github.nettyucx.plainTcpFallback.rememberMax", 4096));

    /** Address to the time (nanos) until which it counts as plain; eldest first. */
    private static final Map<InetSocketAddress, Long> PLAIN = new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<InetSocketAddress, Long> eldest) {
            return size() > REMEMBER_MAX;
        }
    };

    private UcxPlainTcpServers() {
    }

    /** True when {@code server} did not answer a hello lately. */
    public static boolean isPlain(InetSocketAddress server) {
        synchronized (PLAIN) {
            Long until = PLAIN.get(server);
            if (until == null) {
                return false;
            }
            if (System.nanoTime() - until >= 0) {
                PLAIN.remove(server);
                return false;
            }
            return true;
        }
    }

    /** {@code server} did not answer a hello: connect to it as plain TCP for a while. */
    public static void remember(InetSocketAddress server) {
        synchronized (PLAIN) {
            PLAIN.remove(server);
            PLAIN.put(server, System.nanoTime() + REMEMBER_NANOS);
        }
    }

    /** How long a server is remembered as plain TCP. */
    static long rememberMillis() {
        return TimeUnit.NANOSECONDS.toMillis(REMEMBER_NANOS);
    }

    /** Forgets every address (tests). */
    public static void clear() {
        synchronized (PLAIN) {
            PLAIN.clear();
        }
    }
}
