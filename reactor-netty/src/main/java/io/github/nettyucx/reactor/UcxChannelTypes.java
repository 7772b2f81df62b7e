/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxIoHandle;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;

import java.lang.reflect.InvocationTargetException;
import java.util.function.Supplier;

/**
 * The UCX channel that stands for each channel type Reactor Netty asks for, and whether a group runs UCX loops.
 *
 * <p>{@code UcxDatagramChannel} is looked up by name: a transport jar without it still serves TCP and HTTP, and
 * only a name resolution through Netty's DNS resolver on UCX loops fails, with an error that says what to do.
 */
final class UcxChannelTypes {
    static final String DATAGRAM_CLASS_NAME = "io.github.nettyucx.transport.UcxDatagramChannel";

    private static final Class<? extends DatagramChannel> DATAGRAM = findDatagramChannel();

    private UcxChannelTypes() {
    }

    /**
     * True when the loops of {@code group} run {@code UcxIoHandler}s: a {@code UcxEventLoopGroup}, one of its
     * loops, any {@code IoEventLoopGroup} built on the UCX handler, or Reactor Netty's colocating wrapper around
     * one of these (which offers the group it wraps as a {@link Supplier}).
     */
    static boolean isUcx(EventLoopGroup group) {
        if (group instanceof IoEventLoopGroup) {
            return ((IoEventLoopGroup) group).isCompatible(UcxIoHandle.class);
        }
        if (group instanceof Supplier) {
            Object wrapped = ((Supplier<?>) group).get();
            return wrapped instanceof EventLoopGroup && wrapped != group && isUcx((EventLoopGroup) wrapped);
        }
        return false;
    }

    /** The UCX class for {@code type}: {@link SocketChannel}, {@link ServerSocketChannel}, {@link DatagramChannel}. */
    @SuppressWarnings("unchecked")
    static <C extends Channel> Class<? extends C> channelClass(Class<C> type) {
        if (type == SocketChannel.class) {
            return (Class<? extends C>) UcxSocketChannel.class;
        }
        if (type == ServerSocketChannel.class) {
            return (Class<? extends C>) UcxServerSocketChannel.class;
        }
        if (type == DatagramChannel.class) {
            return (Class<? extends C>) datagramChannel();
        }
        throw new IllegalArgumentException("UCX has no channel for " + type.getName()
                + ": UcxLoopResources serves SocketChannel, ServerSocketChannel and DatagramChannel (a Unix domain "
                + "socket address needs Reactor Netty's own LoopResources)");
    }

    /**
     * A new UCX channel for {@code type}. A client {@link UcxSocketChannel} gets
     * {@link UcxChannelOption#PLAIN_TCP_FALLBACK}: the loop resources do not know which servers a client will
     * reach, and most HTTP servers (and DNS over TCP) do not speak netty-ucx. The bootstrap's own options are
     * applied after this, so a client's {@code .option(UcxChannelOption.PLAIN_TCP_FALLBACK, false)} still wins.
     */
    static <C extends Channel> C newChannel(Class<C> type) {
        if (type == SocketChannel.class) {
            UcxSocketChannel channel = new UcxSocketChannel();
            channel.config().setOption(UcxChannelOption.PLAIN_TCP_FALLBACK, true);
            return type.cast(channel);
        }
        if (type == ServerSocketChannel.class) {
            return type.cast(new UcxServerSocketChannel());
        }
        Class<? extends C> channelClass = channelClass(type);
        try {
            return channelClass.getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("could not create a " + channelClass.getName() + ": " + e.getCause(),
                    e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not create a " + channelClass.getName() + ": " + e, e);
        }
    }

    private static Class<? extends DatagramChannel> datagramChannel() {
        if (DATAGRAM == null) {
            throw new UnsupportedOperationException(DATAGRAM_CLASS_NAME + " is not in this netty-ucx-transport, so "
                    + "there is no datagram channel on UCX loops. Reactor Netty's default DNS resolver needs one: give "
                    + "the client .resolver(DefaultAddressResolverGroup.INSTANCE) (the JDK's resolver), or use a "
                    + "netty-ucx-transport that has " + DATAGRAM_CLASS_NAME);
        }
        return DATAGRAM;
    }

    private static Class<? extends DatagramChannel> findDatagramChannel() {
        try {
            return Class.forName(DATAGRAM_CLASS_NAME, false, UcxChannelTypes.class.getClassLoader())
                    .asSubclass(DatagramChannel.class);
        } catch (ClassNotFoundException | ClassCastException e) {
            return null;
        }
    }
}
