/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.github.nettyucx.buffer.UcxByteBufAllocatorMetric;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.nio.file.Paths;

/**
 * The side of {@link ReliabilityPeer} that uses UCX-registered memory ({@link UcxByteBufAllocator#DEFAULT}) as
 * its channels' allocator, for {@link RegisteredMemoryFailureTest}.
 *
 * <pre>
 *   registered-echo-server HOST    echoes copies of what it reads, each copy a new buffer of the channel's
 *                                  allocator, flushed without waiting for writability (a slow reader makes it
 *                                  hold more and more)                                     prints PORT n
 * stdin commands: ALLOC n (prints ALLOC ok|failed exception: one buffer of n bytes, released at once),
 *                 MEMORY (prints MEMORY active=bytes mapped=bytes connections=n fds=n vmsize=KiB)
 * </pre>
 */
final class RegisteredMemoryPeer {
    static final String ALLOC = "ALLOC ";
    static final String MEMORY = "MEMORY ";

    private RegisteredMemoryPeer() {
    }

    static void serve(String host) throws InterruptedException {
        EventLoopGroup group = TestTransport.UCX.newGroup(1);
        int port = ((InetSocketAddress) new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childOption(ChannelOption.ALLOCATOR, UcxByteBufAllocator.DEFAULT)
                .childHandler(new CopyingEcho())
                .bind(new InetSocketAddress(host, 0)).sync().channel().localAddress()).getPort();
        ReliabilityPeer.print(ReliabilityPeer.PORT + port);
    }

    /** Answers the ALLOC and MEMORY commands; null for any other. */
    static String command(String command) {
        if (command.startsWith(ALLOC)) {
            int bytes = Integer.parseInt(command.substring(ALLOC.length()).trim());
            try {
                ByteBuf buf = UcxByteBufAllocator.DEFAULT.directBuffer(bytes);
                buf.setZero(0, bytes); // touch it: the memory must really be there
                buf.release();
                return ALLOC + "ok";
            } catch (Throwable t) {
                return ALLOC + "failed " + t;
            }
        }
        if (command.equals(MEMORY.trim())) {
            UcxByteBufAllocatorMetric metric = UcxByteBufAllocator.DEFAULT.metric();
            return MEMORY + "active=" + metric.activeDirectMemory() + " mapped=" + metric.usedDirectMemory()
                    + " connections=" + UcxNative.connectionsAllocated() + " fds=" + ResourceSnapshot.openFds()
                    + " vmsize=" + ResourceSnapshot.statusKiB(Paths.get("/proc/self/status"), "VmSize:");
        }
        return null;
    }

    /** Parses one field of a MEMORY line. */
    static long field(String memoryLine, String name) {
        for (String part : memoryLine.substring(MEMORY.length()).trim().split(" ")) {
            if (part.startsWith(name + "=")) {
                return Long.parseLong(part.substring(name.length() + 1));
            }
        }
        throw new IllegalArgumentException(name + " not in " + memoryLine);
    }

    @ChannelHandler.Sharable
    private static final class CopyingEcho extends ReliabilityPeer.Reporter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                ByteBuf copy = ctx.alloc().directBuffer(in.readableBytes());
                ctx.write(copy.writeBytes(in));
            } finally {
                in.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
