/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxFd;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AddressedEnvelope;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelPromise;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.util.NetUtil;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.channels.NotYetConnectedException;

/**
 * What a {@link UcxDatagramChannel} does to its native UDP socket ({@link UcxFd}'s datagram calls): bind and
 * connect it, send one message, receive one datagram, join or leave a multicast group, in the family (IPv4, or
 * dual-stack IPv6) chosen when the socket was made, converting Netty's messages and Java's addresses. The channel
 * owns the socket, which a close empties, and passes it to each call. Used on the channel's event loop, as the
 * addresses it keeps
 * ({@link UcxDatagramAddresses}).
 */
final class UcxDatagramSocket {
    private final boolean ipv6;
    private final UcxDatagramAddresses addresses = new UcxDatagramAddresses();

    /** The socket of a family; {@code null} picks IPv6 (dual-stack) unless the host or the JVM has no IPv6. */
    UcxDatagramSocket(SocketProtocolFamily family) {
        ipv6 = useIpv6(family);
    }

    private static boolean useIpv6(SocketProtocolFamily family) {
        if (family == null) {
            return DefaultFamily.IPV6;
        }
        switch (family) {
            case INET:
                return false;
            case INET6:
                return true;
            default:
                throw new UnsupportedOperationException("UcxDatagramChannel sends UDP over IP; " + family
                        + " is not supported (use SocketProtocolFamily.INET or INET6)");
        }
    }

    /** Read once, on first use: the JVM's preference, and whether the kernel has IPv6 at all. */
    private static final class DefaultFamily {
        static final boolean IPV6 = !NetUtil.isIpV4StackPreferred() && UcxFd.datagramIpv6Supported();
    }

    /** Whether the socket is IPv6 (dual-stack). */
    boolean isIpv6() {
        return ipv6;
    }

    /** Gives {@code fd} a new non-blocking UDP socket of this family. */
    void open(UcxFd fd) throws IOException {
        fd.ownNewDatagram(ipv6);
    }

    /** Binds {@code fd} to {@code address}; returns the address the kernel bound it to. */
    InetSocketAddress bind(UcxFd fd, InetSocketAddress address) throws IOException {
        fd.datagramBind(ipv6, SocketAddresses.ip(address), scopeId(address.getAddress()), address.getPort());
        return SocketAddresses.decode(fd.localAddress());
    }

    /** Sets the default peer of {@code fd}; returns the local address the kernel bound it to. */
    InetSocketAddress connect(UcxFd fd, InetSocketAddress remote) throws IOException {
        fd.datagramConnect(ipv6, SocketAddresses.ip(remote), scopeId(remote.getAddress()), remote.getPort());
        return SocketAddresses.decode(fd.localAddress());
    }

    /** Dissolves the association of {@code fd} with its peer; returns the local address it keeps. */
    static InetSocketAddress disconnect(UcxFd fd) throws IOException {
        fd.datagramDisconnect();
        return SocketAddresses.decode(fd.localAddress());
    }

    private static int scopeId(InetAddress address) {
        return address instanceof Inet6Address ? ((Inet6Address) address).getScopeId() : 0;
    }

    /**
     * Sends one message (as {@link UcxDatagramOutbound} made it: a direct buffer, alone when {@code connected}, or
     * in an envelope); false when the socket buffer is full.
     */
    boolean send(UcxFd fd, Object msg, boolean connected) throws IOException {
        ByteBuf data;
        InetSocketAddress recipient;
        if (msg instanceof AddressedEnvelope) {
            @SuppressWarnings("unchecked")
            AddressedEnvelope<ByteBuf, InetSocketAddress> envelope =
                    (AddressedEnvelope<ByteBuf, InetSocketAddress>) msg;
            data = envelope.content();
            recipient = envelope.recipient();
        } else {
            data = (ByteBuf) msg;
            recipient = null;
        }
        int length = data.readableBytes();
        long address = length == 0 ? 0 : data.memoryAddress() + data.readerIndex();
        int sent;
        if (recipient != null) {
            byte[] ip = addresses.ip(recipient);
            sent = fd.datagramSendTo(address, length, ipv6, ip, addresses.scopeId(), recipient.getPort());
        } else if (connected) {
            sent = fd.datagramSend(address, length);
        } else {
            throw new NotYetConnectedException();
        }
        return sent >= 0;
    }

    /**
     * Receives one datagram into a buffer of {@code handle}, telling the handle what was read; null when none was
     * waiting. The packet's recipient is {@code local}.
     */
    @SuppressWarnings("deprecation")
    DatagramPacket receive(UcxFd fd, RecvByteBufAllocator.Handle handle, ByteBufAllocator allocator,
                           InetSocketAddress local) throws IOException {
        ByteBuf buf = directBuffer(handle.allocate(allocator), allocator);
        try {
            int writable = buf.writableBytes();
            handle.attemptedBytesRead(writable);
            int received = fd.datagramReceive(buf.memoryAddress() + buf.writerIndex(), writable,
                    addresses.senderBuffer());
            if (received < 0) {
                handle.lastBytesRead(-1);
                return null;
            }
            buf.writerIndex(buf.writerIndex() + received);
            // At least 1: an empty datagram is a message, not the end of the data.
            handle.lastBytesRead(Math.max(1, received));
            handle.incMessagesRead(1);
            DatagramPacket packet = new DatagramPacket(buf, local, addresses.sender());
            buf = null;
            return packet;
        } finally {
            if (buf != null) {
                buf.release();
            }
        }
    }

    /** The allocator's buffer, or a direct one of the same size when it gave one without a native address. */
    private static ByteBuf directBuffer(ByteBuf buf, ByteBufAllocator allocator) {
        if (buf.hasMemoryAddress()) {
            return buf;
        }
        int capacity = buf.writableBytes();
        buf.release();
        ByteBuf direct = allocator.directBuffer(capacity);
        if (!direct.hasMemoryAddress()) {
            direct.release();
            throw new ChannelException("the channel's allocator gives direct buffers without a native address;"
                    + " configure one that does (PooledByteBufAllocator.DEFAULT, for example)");
        }
        return direct;
    }

    /**
     * Joins or leaves {@code group} (from {@code source} only, when given) on {@code networkInterface}, and
     * fulfils {@code promise}; {@code fd} is empty once the channel is closed. Without an interface, the kernel picks
     * the one its routing table has for the group.
     */
    static void membership(UcxFd fd, boolean join, InetAddress group, NetworkInterface networkInterface,
                           InetAddress source, ChannelPromise promise) {
        if (!group.isMulticastAddress()) {
            promise.setFailure(new IllegalArgumentException(group + " is not a multicast address"));
            return;
        }
        if (!fd.isOpen()) {
            promise.setFailure(new SocketException("the channel is closed"));
            return;
        }
        try {
            fd.membership(join, group.getAddress(), source == null ? null : source.getAddress(),
                    networkInterface == null ? 0 : networkInterface.getIndex());
            promise.setSuccess();
        } catch (IOException e) {
            promise.setFailure(e);
        }
    }
}
