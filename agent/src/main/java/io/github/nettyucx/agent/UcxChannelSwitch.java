/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import io.github.nettyucx.transport.UcxDatagramChannel;
import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.AbstractBootstrap;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoop;
import io.netty.channel.ReflectiveChannelFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The channel factory a bootstrap holds under the agent: it makes the application's channel, or, where the
 * bootstrap's event loop group was moved to UCX, the UCX channel of the same kind (a TCP client, a TCP server, a UDP
 * socket). The choice is made per channel, in {@code initAndRegister}, when the group is known: a bootstrap may be
 * given its group after its channel class, and cloned onto another group.
 */
final class UcxChannelSwitch implements ChannelFactory<Channel> {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance("io.github.nettyucx.agent");
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    @SuppressWarnings("deprecation")
    private final io.netty.bootstrap.ChannelFactory<?> original;
    /** The class {@link #original} makes, where it can be known without making one. */
    private final Class<?> type;

    @SuppressWarnings("deprecation")
    private UcxChannelSwitch(io.netty.bootstrap.ChannelFactory<?> original, Class<?> type) {
        this.original = original;
        this.type = type;
    }

    @SuppressWarnings("deprecation")
    static Object wrap(Object factory) {
        io.netty.bootstrap.ChannelFactory<?> original = (io.netty.bootstrap.ChannelFactory<?>) factory;
        return new UcxChannelSwitch(original, reflectiveType(original));
    }

    @Override
    public Channel newChannel() {
        Object bootstrap = UcxAgentHooks.registeringBootstrap();
        if (!(bootstrap instanceof AbstractBootstrap) || !onUcx((AbstractBootstrap<?, ?>) bootstrap)) {
            return (Channel) original.newChannel();
        }
        if (type != null) {
            Channel replacement = replacement(type.getName());
            if (replacement != null) {
                return replacement;
            }
        }
        Channel channel = (Channel) original.newChannel();
        Channel replacement = replacement(channel.getClass().getName());
        if (replacement != null) {
            // A factory of the application's own (a lambda): the channel exists, with its socket; let it go.
            channel.unsafe().closeForcibly();
            return replacement;
        }
        if (!channel.getClass().getName().startsWith("io.github.nettyucx.")) {
            stays(channel.getClass());
        }
        return channel;
    }

    @Override
    public String toString() {
        return original.toString();
    }

    private static Channel replacement(String className) {
        switch (className) {
            case "io.netty.channel.socket.nio.NioSocketChannel":
            case "io.netty.channel.epoll.EpollSocketChannel":
            case "io.netty.channel.uring.IoUringSocketChannel":
                UcxAgentReport.channelSwapped(UcxAgentReport.SOCKET);
                return new UcxSocketChannel();
            case "io.netty.channel.socket.nio.NioServerSocketChannel":
            case "io.netty.channel.epoll.EpollServerSocketChannel":
            case "io.netty.channel.uring.IoUringServerSocketChannel":
                UcxAgentReport.channelSwapped(UcxAgentReport.SERVER_SOCKET);
                return new UcxServerSocketChannel();
            case "io.netty.channel.socket.nio.NioDatagramChannel":
            case "io.netty.channel.epoll.EpollDatagramChannel":
            case "io.netty.channel.uring.IoUringDatagramChannel":
                UcxAgentReport.channelSwapped(UcxAgentReport.DATAGRAM);
                return new UcxDatagramChannel();
            default:
                return null;
        }
    }

    /** Says once per class that a channel UCX does not carry meets a group the agent moved, and what to do. */
    private static void stays(Class<?> channelType) {
        UcxAgentReport.channelSwapped(UcxAgentReport.LEFT);
        if (WARNED.add(channelType.getName())) {
            String caller = UcxAgentRuntime.callerOutsideNetty();
            int dot = caller.lastIndexOf('.');
            logger.warn("netty-ucx agent: {} (made for {}) has no UCX counterpart, and its bootstrap's event loop"
                            + " group was moved to UCX, so registering it will fail. Fix: leave that code's groups on"
                            + " their transport with excludePackages={} (or transports=... without this one);"
                            + " docs/agent.md lists what stays", channelType.getName(), caller,
                    dot > 0 ? caller.substring(0, dot) : caller);
        }
    }

    private static boolean onUcx(AbstractBootstrap<?, ?> bootstrap) {
        if (!onUcx(bootstrap.config().group())) {
            return false;
        }
        if (bootstrap instanceof ServerBootstrap) {
            EventLoopGroup children = ((ServerBootstrap) bootstrap).config().childGroup();
            return children == null || onUcx(children);
        }
        return true;
    }

    /** Whether the group's loops run UCX's handler; read from its loops, not {@code next()}, which would move on. */
    private static boolean onUcx(EventLoopGroup group) {
        if (group == null) {
            return false;
        }
        Iterator<EventExecutor> loops = group.iterator();
        if (!loops.hasNext()) {
            return false;
        }
        EventExecutor loop = loops.next();
        return loop instanceof IoEventLoop && ((IoEventLoop) loop).isIoType(UcxIoHandler.class);
    }

    /** The class {@code channel(Class)}'s factory makes, read from its constructor; {@code null} if unreadable. */
    @SuppressWarnings("deprecation")
    private static Class<?> reflectiveType(io.netty.bootstrap.ChannelFactory<?> factory) {
        if (!(factory instanceof ReflectiveChannelFactory)) {
            return null;
        }
        try {
            Field field = ReflectiveChannelFactory.class.getDeclaredField("constructor");
            field.setAccessible(true);
            return ((Constructor<?>) field.get(factory)).getDeclaringClass();
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Netty on the module path, or a field renamed: the channel is made first and swapped after.
            return null;
        }
    }
}
