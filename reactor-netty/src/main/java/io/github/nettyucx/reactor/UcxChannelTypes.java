/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxDatagramChannel;
import io.github.nettyucx.loop.UcxIoHandle;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;

import java.util.Map;
import java.util.function.Supplier;

/** The UCX channel that stands for each channel type Reactor Netty asks for, and whether a group runs UCX loops. */
final class UcxChannelTypes {
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
            return (Class<? extends C>) UcxDatagramChannel.class;
        }
        throw unsupported(type);
    }

    /**
     * A new UCX channel for {@code type}. A client {@link UcxSocketChannel} gets
     * {@link UcxChannelOption#PLAIN_TCP_FALLBACK}: the loop resources do not know which servers a client will
     * reach, and most HTTP servers (and DNS over TCP) do not speak netty-ucx. The bootstrap's own options are
     * applied after this, so a client's {@code .option(UcxChannelOption.PLAIN_TCP_FALLBACK, false)} still wins.
     * {@code clientOptions} (those of {@link UcxLoopResources#withClientOption}) follow it, so they may turn it off.
     * A {@link UcxDatagramChannel} (Netty's DNS resolver asks for one) is a UDP socket on the UCX loop.
     */
    @SuppressWarnings("unchecked")
    static <C extends Channel> C newChannel(Class<C> type, Map<ChannelOption<?>, Object> clientOptions) {
        if (type == SocketChannel.class) {
            UcxSocketChannel channel = new UcxSocketChannel();
            channel.config().setOption(UcxChannelOption.PLAIN_TCP_FALLBACK, true);
            for (Map.Entry<ChannelOption<?>, Object> e : clientOptions.entrySet()) {
                if (!channel.config().setOption((ChannelOption<Object>) e.getKey(), e.getValue())) {
                    throw new IllegalArgumentException("a UCX client channel has no option " + e.getKey());
                }
            }
            return type.cast(channel);
        }
        if (type == ServerSocketChannel.class) {
            return type.cast(new UcxServerSocketChannel());
        }
        if (type == DatagramChannel.class) {
            return type.cast(new UcxDatagramChannel());
        }
        throw unsupported(type);
    }

    private static IllegalArgumentException unsupported(Class<?> type) {
        return new IllegalArgumentException("UCX has no channel for " + type.getName()
                + ": UcxLoopResources serves SocketChannel, ServerSocketChannel and DatagramChannel (a Unix domain "
                + "socket address needs Reactor Netty's own LoopResources)");
    }
}
