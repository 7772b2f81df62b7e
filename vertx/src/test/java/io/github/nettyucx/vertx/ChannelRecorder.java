/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.netty.bootstrap.ChannelInitializerExtension;
import io.netty.channel.Channel;
import io.netty.channel.ServerChannel;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * Records every channel that Netty's bootstraps make in this JVM, which is how the tests see the channel classes
 * Vert.x really uses. Vert.x makes each client channel with a {@code Bootstrap} and each server with a
 * {@code ServerBootstrap}, and these call the {@link ChannelInitializerExtension}s that the service loader finds
 * when {@code -Dio.netty.bootstrap.extensions=serviceload} (the surefire configuration sets it). This is
 * Netty's public hook, handed the channel objects themselves, with nothing of Vert.x's internals: a transport
 * attribute such as the local address would look the same on any transport.
 */
public final class ChannelRecorder extends ChannelInitializerExtension {
    private static final Queue<Channel> CLIENTS = new ConcurrentLinkedQueue<>();
    private static final Queue<ServerChannel> LISTENERS = new ConcurrentLinkedQueue<>();
    private static final Queue<Channel> ACCEPTED = new ConcurrentLinkedQueue<>();

    @Override
    public void postInitializeClientChannel(Channel channel) {
        CLIENTS.add(channel);
    }

    @Override
    public void postInitializeServerListenerChannel(ServerChannel channel) {
        LISTENERS.add(channel);
    }

    @Override
    public void postInitializeServerChildChannel(Channel channel) {
        ACCEPTED.add(channel);
    }

    /** Whether Netty loaded this extension: without it the lists below stay empty. */
    static boolean enabled() {
        return "serviceload".equalsIgnoreCase(System.getProperty(EXTENSIONS_SYSTEM_PROPERTY));
    }

    /**
     * The open listening channels bound to {@code port}. Open only, here and below: a port that an earlier
     * test's server had may come again.
     */
    static List<Channel> listenersOn(int port) {
        return open(LISTENERS, listener -> port(listener.localAddress()) == port);
    }

    /** The open client channels (datagram channels too) that {@code wanted} accepts. */
    static List<Channel> openClients(Predicate<Channel> wanted) {
        return open(CLIENTS, wanted);
    }

    /** The open client channels connected to {@code port}. */
    static List<Channel> clientsTo(int port) {
        return open(CLIENTS, client -> port(client.remoteAddress()) == port);
    }

    /** The open connections that the open listeners on {@code port} accepted. */
    static List<Channel> acceptedOn(int port) {
        List<Channel> listeners = listenersOn(port);
        return open(ACCEPTED, child -> listeners.contains(child.parent()));
    }

    /** The open connections accepted in this JVM whose peers are {@code clients}, one end each. */
    static List<Channel> acceptedFrom(List<Channel> clients) {
        List<SocketAddress> peers = new ArrayList<>();
        for (Channel client : clients) {
            peers.add(client.localAddress());
        }
        return open(ACCEPTED, child -> peers.contains(child.remoteAddress()));
    }

    private static List<Channel> open(Queue<? extends Channel> channels, Predicate<Channel> wanted) {
        List<Channel> found = new ArrayList<>();
        for (Channel channel : channels) {
            if (channel.isOpen() && wanted.test(channel)) {
                found.add(channel);
            }
        }
        return found;
    }

    private static int port(SocketAddress address) {
        return address instanceof InetSocketAddress ? ((InetSocketAddress) address).getPort() : -1;
    }
}
