/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.AddressedEnvelope;
import io.netty.channel.DefaultAddressedEnvelope;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.StringUtil;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.UnresolvedAddressException;

/**
 * What a {@link UcxDatagramChannel} takes to write, made into what {@link UcxDatagramSocket#send} sends:
 * {@link DatagramPacket}s, other {@link AddressedEnvelope}s of {@link ByteBuf} to resolved addresses, and plain
 * {@link ByteBuf}s, each with its bytes in native memory (heap buffers are copied to a direct one first).
 */
final class UcxDatagramOutbound {
    private static final String EXPECTED_TYPES = " (expected: " + StringUtil.simpleClassName(DatagramPacket.class)
            + ", " + StringUtil.simpleClassName(AddressedEnvelope.class) + '<'
            + StringUtil.simpleClassName(ByteBuf.class) + ", " + StringUtil.simpleClassName(InetSocketAddress.class)
            + ">, " + StringUtil.simpleClassName(ByteBuf.class) + ')';

    private UcxDatagramOutbound() {
    }

    /** {@code msg}, or a copy of it in direct memory from {@code alloc}; throws for what a datagram cannot carry. */
    static Object filter(Object msg, ByteBufAllocator alloc) {
        if (msg instanceof DatagramPacket) {
            DatagramPacket packet = (DatagramPacket) msg;
            checkUnresolved(packet);
            ByteBuf content = packet.content();
            return content.hasMemoryAddress() ? packet
                    : new DatagramPacket(directCopy(alloc, packet, content), packet.recipient());
        }
        if (msg instanceof ByteBuf) {
            ByteBuf buf = (ByteBuf) msg;
            return buf.hasMemoryAddress() ? buf : directCopy(alloc, buf, buf);
        }
        if (msg instanceof AddressedEnvelope) {
            @SuppressWarnings("unchecked")
            AddressedEnvelope<Object, SocketAddress> envelope = (AddressedEnvelope<Object, SocketAddress>) msg;
            checkUnresolved(envelope);
            if (envelope.content() instanceof ByteBuf
                    && (envelope.recipient() == null || envelope.recipient() instanceof InetSocketAddress)) {
                ByteBuf content = (ByteBuf) envelope.content();
                return content.hasMemoryAddress() ? envelope : new DefaultAddressedEnvelope<>(
                        directCopy(alloc, envelope, content), (InetSocketAddress) envelope.recipient());
            }
        }
        throw new UnsupportedOperationException("unsupported message type: " + StringUtil.simpleClassName(msg)
                + EXPECTED_TYPES);
    }

    private static void checkUnresolved(AddressedEnvelope<?, ?> envelope) {
        if (envelope.recipient() instanceof InetSocketAddress
                && ((InetSocketAddress) envelope.recipient()).isUnresolved()) {
            throw new UnresolvedAddressException();
        }
    }

    /**
     * A direct copy of {@code buf}'s readable bytes, from the channel's allocator when it pools direct buffers
     * (or a thread-local one), so that the send reads native memory; releases {@code holder}, which owns buf.
     */
    private static ByteBuf directCopy(ByteBufAllocator alloc, Object holder, ByteBuf buf) {
        int readable = buf.readableBytes();
        if (readable == 0) {
            ReferenceCountUtil.release(holder);
            return Unpooled.EMPTY_BUFFER;
        }
        ByteBuf direct = alloc.isDirectBufferPooled() ? null : ByteBufUtil.threadLocalDirectBuffer();
        if (direct == null) {
            direct = alloc.directBuffer(readable);
        }
        direct.writeBytes(buf, buf.readerIndex(), readable);
        ReferenceCountUtil.safeRelease(holder);
        return direct;
    }
}
