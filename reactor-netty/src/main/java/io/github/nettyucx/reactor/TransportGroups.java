/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.netty.channel.EventLoopGroup;
import reactor.netty.resources.LoopResources;

import java.util.ArrayList;
import java.util.List;

/**
 * The groups of one transport that a {@link UcxLoopResources} hands out, each made at its first use, as Reactor
 * Netty's own resources keep one such set for the native transport and one for NIO: the server group, the selector
 * group (the server group itself unless a selector count is given) and the client group (the server group,
 * colocated unless asked otherwise). Not thread-safe: its owner calls it with its own lock held.
 */
final class TransportGroups {
    /** Makes a group of {@code loops} loops whose threads are named after {@code kind}. */
    interface Factory {
        EventLoopGroup newGroup(int loops, String kind);
    }

    private final String transport;
    private final int selectCount;
    private final int workerCount;
    private final boolean colocate;
    private final Factory factory;

    private EventLoopGroup server;
    private EventLoopGroup select;
    private EventLoopGroup client;

    /** {@code transport} names the groups' threads: {@code <prefix>-<transport>-<n>}, {@code <prefix>-select-...}. */
    TransportGroups(String transport, int selectCount, int workerCount, boolean colocate, Factory factory) {
        this.transport = transport;
        this.selectCount = selectCount;
        this.workerCount = workerCount;
        this.colocate = colocate;
        this.factory = factory;
    }

    EventLoopGroup server() {
        if (server == null) {
            server = factory.newGroup(workerCount, transport);
        }
        return server;
    }

    EventLoopGroup select() {
        if (selectCount == -1) {
            return server();
        }
        if (select == null) {
            select = factory.newGroup(selectCount, "select-" + transport);
        }
        return select;
    }

    EventLoopGroup client() {
        if (client == null) {
            client = colocate ? LoopResources.colocate(server()) : server();
        }
        return client;
    }

    /** The groups made so far that own threads: the client group is the server group, or a view of it. */
    List<EventLoopGroup> made() {
        List<EventLoopGroup> groups = new ArrayList<>(2);
        if (server != null) {
            groups.add(server);
        }
        if (select != null) {
            groups.add(select);
        }
        return groups;
    }
}
