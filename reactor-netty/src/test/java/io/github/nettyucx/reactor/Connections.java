/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connections a server accepted or a client made, recorded from Reactor Netty's {@code doOnConnection} /
 * {@code doOnConnected} with what {@link UcxSocketChannel#ucxLanes()} said of each while it was open: how its bytes
 * travel (a UCX endpoint's lanes, or plain TCP).
 */
final class Connections {
    private final Map<Channel, Future<String>> lanes = new ConcurrentHashMap<>();

    /**
     * Records {@code channel}; asked from the connection callbacks, when the channel is active (a server calls them for
     * each request of a connection that is kept alive).
     */
    void record(Channel channel) {
        lanes.computeIfAbsent(channel, c -> c instanceof UcxSocketChannel ? ((UcxSocketChannel) c).ucxLanes()
                : c.eventLoop().newSucceededFuture("not a UCX channel"));
    }

    List<Channel> channels() {
        return new ArrayList<>(lanes.keySet());
    }

    void clear() {
        lanes.clear();
    }

    /**
     * Every connection recorded is a UCX channel on a UCX loop whose bytes travel through a UCX endpoint
     * (described by its lanes), not as TCP.
     */
    void assertAllUcx() throws Exception {
        assertFalse(lanes.isEmpty(), "no connection was recorded");
        for (Map.Entry<Channel, Future<String>> e : lanes.entrySet()) {
            UcxChecks.assertUcxChannel(e.getKey());
            String described = e.getValue().get(30, TimeUnit.SECONDS);
            assertTrue(described.contains("lane"), e.getKey() + " does not use a UCX endpoint: " + described);
        }
    }

    /** Every connection recorded is a UCX channel whose peer does not speak netty-ucx: plain TCP. */
    void assertAllPlainTcp() throws Exception {
        assertFalse(lanes.isEmpty(), "no connection was recorded");
        for (Map.Entry<Channel, Future<String>> e : lanes.entrySet()) {
            UcxChecks.assertUcxChannel(e.getKey());
            String described = e.getValue().get(30, TimeUnit.SECONDS);
            assertTrue(described.startsWith("plain TCP"), e.getKey() + " is not plain TCP: " + described);
        }
    }
}
