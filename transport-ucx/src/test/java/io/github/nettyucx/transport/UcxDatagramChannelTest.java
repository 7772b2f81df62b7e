/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.util.CharsetUtil;
import io.netty.util.NetUtil;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.AlreadyConnectedException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Netty's datagram suite does not cover of {@link UcxDatagramChannel}: a UCX loop holding socket and
 * datagram channels at once, the socket options, reads paced by the {@link io.netty.channel.RecvByteBufAllocator}
 * handle, multicast (IPv4, on the loopback interface, so nothing leaves the host), that the socket is closed
 * exactly when the channel or its loop goes, and that misuse fails futures or throws instead of crashing.
 */
@Timeout(30)
class UcxDatagramChannelTest extends AbstractLeakCheckedTest {
    private static final InetAddress GROUP = address("239.255.27.1");
    private static EventLoopGroup group;

    @BeforeAll
    static void startGroup() {
        if (Ucx.isAvailable()) {
            group = new UcxEventLoopGroup(1, new DefaultThreadFactory("datagram-ucx", true));
        }
    }

    @AfterAll
    static void stopGroup() {
        if (group != null) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @BeforeEach
    void requireUcx() {
        TestTransport.requireUcx();
    }

    private static InetAddress address(String literal) {
        return NetUtil.createInetAddressFromIpAddressString(literal);
    }

    private static Bootstrap datagrams(ChannelHandler handler) {
        return new Bootstrap().group(group).channel(UcxDatagramChannel.class).handler(handler);
    }

    @Test
    void oneLoopHoldsSocketAndDatagramChannelsAtOnce() throws Exception {
        Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childHandler(new Echo()).bind(NetUtil.LOCALHOST4, 0).sync().channel();
        Received streamReplies = new Received();
        Channel client = new Bootstrap().group(group).channel(UcxSocketChannel.class).handler(streamReplies)
                .connect(server.localAddress()).sync().channel();
        Channel echo = datagrams(new DatagramEcho()).bind(NetUtil.LOCALHOST4, 0).sync().channel();
        Received datagramReplies = new Received();
        Channel sender = datagrams(datagramReplies).bind(NetUtil.LOCALHOST4, 0).sync().channel();
        try {
            for (Channel channel : List.of(server, client, echo, sender)) {
                assertSame(group.next(), channel.eventLoop());
            }
            for (int i = 0; i < 3; i++) {
                client.writeAndFlush(Unpooled.copiedBuffer("stream " + i, CharsetUtil.US_ASCII));
                sender.writeAndFlush(new DatagramPacket(Unpooled.copiedBuffer("datagram " + i, CharsetUtil.US_ASCII),
                        (InetSocketAddress) echo.localAddress())).sync();
                assertEquals("datagram " + i, datagramReplies.next());
            }
            StringBuilder stream = new StringBuilder();
            while (stream.length() < "stream 0stream 1stream 2".length()) {
                stream.append(streamReplies.next());
            }
            assertEquals("stream 0stream 1stream 2", stream.toString());
        } finally {
            for (Channel channel : List.of(sender, echo, client, server)) {
                channel.close().sync();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = SocketProtocolFamily.class, names = {"INET", "INET6"})
    void socketOptionsReachTheSocket(SocketProtocolFamily family) throws Exception {
        UcxDatagramChannel channel = (UcxDatagramChannel) new Bootstrap().group(group)
                .channelFactory(() -> new UcxDatagramChannel(family)).handler(new ChannelInboundHandlerAdapter())
                .option(ChannelOption.SO_BROADCAST, true)
                .option(ChannelOption.SO_RCVBUF, 65536)
                .option(ChannelOption.SO_SNDBUF, 32768)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(UcxChannelOption.SO_REUSEPORT, true)
                .option(ChannelOption.IP_TOS, 0x10)
                .option(ChannelOption.IP_MULTICAST_TTL, 7)
                .option(ChannelOption.IP_MULTICAST_LOOP_DISABLED, true)
                .option(ChannelOption.IP_MULTICAST_IF, NetworkInterface.getByName("lo"))
                .register().sync().channel();
        try {
            UcxDatagramChannelConfig config = channel.config();
            assertTrue(config.getOption(ChannelOption.SO_BROADCAST));
            // Linux doubles what it is given, for its bookkeeping.
            assertEquals(2 * 65536, config.getOption(ChannelOption.SO_RCVBUF));
            assertEquals(2 * 32768, config.getOption(ChannelOption.SO_SNDBUF));
            assertTrue(config.getOption(ChannelOption.SO_REUSEADDR));
            assertTrue(config.getOption(UcxChannelOption.SO_REUSEPORT));
            assertEquals(0x10, config.getOption(ChannelOption.IP_TOS));
            assertEquals(7, config.getOption(ChannelOption.IP_MULTICAST_TTL));
            assertTrue(config.getOption(ChannelOption.IP_MULTICAST_LOOP_DISABLED));
            assertEquals(NetworkInterface.getByName("lo"), config.getOption(ChannelOption.IP_MULTICAST_IF));
            assertTrue(Collections.list(NetworkInterface.getByName("lo").getInetAddresses())
                    .contains(config.getOption(ChannelOption.IP_MULTICAST_ADDR)));

            config.setBroadcast(false).setReuseAddress(false).setReusePort(false).setTrafficClass(0)
                    .setTimeToLive(1).setLoopbackModeDisabled(false);
            assertFalse(config.isBroadcast());
            assertFalse(config.isReuseAddress());
            assertFalse(config.isReusePort());
            assertEquals(0, config.getTrafficClass());
            assertEquals(1, config.getTimeToLive());
            assertFalse(config.isLoopbackModeDisabled());
            assertTrue(config.getOptions().containsKey(UcxChannelOption.SO_REUSEPORT));
        } finally {
            channel.close().sync();
        }
    }

    @Test
    void reusePortLetsTwoChannelsBindOnePort() throws Exception {
        Channel first = datagrams(new ChannelInboundHandlerAdapter()).option(UcxChannelOption.SO_REUSEPORT, true)
                .bind(NetUtil.LOCALHOST4, 0).sync().channel();
        InetSocketAddress address = (InetSocketAddress) first.localAddress();
        Channel second = datagrams(new ChannelInboundHandlerAdapter()).option(UcxChannelOption.SO_REUSEPORT, true)
                .bind(address).sync().channel();
        ChannelFuture third = datagrams(new ChannelInboundHandlerAdapter()).bind(address).await();
        try {
            assertEquals(address, second.localAddress());
            assertFalse(third.isSuccess());
            assertInstanceOf(IOException.class, third.cause());
            assertTrue(third.cause().getMessage().contains("Address already in use"), third.cause().getMessage());
            // The bootstrap closes a channel that failed to bind.
            third.channel().closeFuture().sync();
        } finally {
            first.close().sync();
            second.close().sync();
        }
    }

    /**
     * With auto-read off, each read() takes at most maxMessagesPerRead datagrams, then one channelReadComplete,
     * and nothing more comes until the next read(): the datagrams wait in the socket meanwhile, in order.
     */
    @Test
    void eachReadTakesAtMostMaxMessagesPerRead() throws Exception {
        Received received = new Received();
        Channel receiver = datagrams(received).option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.MAX_MESSAGES_PER_READ, 3).bind(NetUtil.LOCALHOST4, 0).sync().channel();
        Channel sender = datagrams(new ChannelInboundHandlerAdapter()).bind(NetUtil.LOCALHOST4, 0).sync().channel();
        try {
            InetSocketAddress to = (InetSocketAddress) receiver.localAddress();
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < 11; i++) {
                sent.add("m" + i);
                sender.write(new DatagramPacket(Unpooled.copiedBuffer("m" + i, CharsetUtil.US_ASCII), to));
            }
            sender.flush();
            List<String> all = new ArrayList<>();
            List<Integer> batchSizes = new ArrayList<>();
            while (all.size() < sent.size()) {
                receiver.read();
                List<String> batch = received.nextBatch();
                batchSizes.add(batch.size());
                all.addAll(batch);
            }
            assertEquals(sent, all);
            // A read wakes only for a datagram that is there, and stops at the third: loopback has usually
            // delivered all eleven by then, which gives 3, 3, 3, 2.
            for (int size : batchSizes) {
                assertTrue(size >= 1 && size <= 3, "batch sizes " + batchSizes);
            }
        } finally {
            receiver.close().sync();
            sender.close().sync();
        }
    }

    @ParameterizedTest
    @EnumSource(value = SocketProtocolFamily.class, names = {"INET", "INET6"})
    void multicastOnTheLoopbackInterface(SocketProtocolFamily family) throws Exception {
        NetworkInterface loopback = NetworkInterface.getByName("lo");
        Received received = new Received();
        DatagramChannel member = (DatagramChannel) new Bootstrap().group(group)
                .channelFactory(() -> new UcxDatagramChannel(family)).handler(received)
                .bind(new InetSocketAddress(0)).sync().channel();
        Channel sender = datagrams(new ChannelInboundHandlerAdapter())
                .option(ChannelOption.IP_MULTICAST_IF, loopback).bind(NetUtil.LOCALHOST4, 0).sync().channel();
        InetSocketAddress groupAddress = new InetSocketAddress(GROUP, member.localAddress().getPort());
        try {
            member.joinGroup(groupAddress, loopback).sync();
            sender.writeAndFlush(new DatagramPacket(Unpooled.copiedBuffer("to the group", CharsetUtil.US_ASCII),
                    groupAddress)).sync();
            assertEquals("to the group", received.next());

            // Joined twice is refused; leaving twice too: the membership is the kernel's.
            assertFalse(member.joinGroup(groupAddress, loopback).await().isSuccess());
            member.leaveGroup(groupAddress, loopback).sync();
            ChannelFuture leftTwice = member.leaveGroup(groupAddress, loopback).await();
            assertInstanceOf(IOException.class, leftTwice.cause());
            member.joinGroup(groupAddress, loopback).sync();
            member.leaveGroup(groupAddress, loopback).sync();
        } finally {
            member.close().sync();
            sender.close().sync();
        }
    }

    @Test
    void closingTheChannelClosesItsSocket() throws Exception {
        UcxDatagramChannel bound = (UcxDatagramChannel) datagrams(new ChannelInboundHandlerAdapter())
                .bind(NetUtil.LOCALHOST4, 0).sync().channel();
        String boundSocket = socketOf(bound);
        bound.close().sync();
        assertFalse(isOpenSomewhere(boundSocket));

        // Never registered: the bootstrap's closeForcibly path, and a user who drops a new channel.
        UcxDatagramChannel unregistered = new UcxDatagramChannel();
        String unregisteredSocket = socketOf(unregistered);
        unregistered.unsafe().closeForcibly();
        assertFalse(unregistered.isOpen());
        assertFalse(isOpenSomewhere(unregisteredSocket));
    }

    @Test
    void aLoopThatShutsDownClosesItsDatagramSockets() throws Exception {
        EventLoopGroup own = new UcxEventLoopGroup(1, new DefaultThreadFactory("datagram-ucx-own", true));
        UcxDatagramChannel channel = (UcxDatagramChannel) new Bootstrap().group(own).channel(UcxDatagramChannel.class)
                .handler(new ChannelInboundHandlerAdapter()).bind(NetUtil.LOCALHOST4, 0).sync().channel();
        String socket = socketOf(channel);
        own.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        assertFalse(channel.isOpen());
        assertFalse(isOpenSomewhere(socket));
    }

    @Test
    void misuseFailsFuturesOrThrows() throws Exception {
        UcxDatagramChannel ipv4 = (UcxDatagramChannel) new Bootstrap().group(group)
                .channelFactory(() -> new UcxDatagramChannel(SocketProtocolFamily.INET))
                .handler(new ChannelInboundHandlerAdapter()).register().sync().channel();
        try {
            ChannelFuture ipv6Bind = ipv4.bind(new InetSocketAddress(NetUtil.LOCALHOST6, 0)).await();
            assertTrue(ipv6Bind.cause().getMessage().contains("IPv6 address for an IPv4 socket"),
                    ipv6Bind.cause().getMessage());
            ipv4.bind(new InetSocketAddress(NetUtil.LOCALHOST4, 0)).sync();

            ChannelFuture unconnectedWrite = ipv4.writeAndFlush(Unpooled.copiedBuffer("x", CharsetUtil.US_ASCII))
                    .await();
            assertInstanceOf(java.nio.channels.NotYetConnectedException.class, unconnectedWrite.cause());
            ChannelFuture wrongType = ipv4.writeAndFlush("not a buffer").await();
            assertInstanceOf(UnsupportedOperationException.class, wrongType.cause());
            ChannelFuture notAGroup = ipv4.joinGroup(NetUtil.LOCALHOST4).await();
            assertInstanceOf(IllegalArgumentException.class, notAGroup.cause());
            ChannelFuture block = ipv4.block(GROUP, NetUtil.LOCALHOST4).await();
            assertInstanceOf(UnsupportedOperationException.class, block.cause());

            ipv4.connect(new InetSocketAddress(NetUtil.LOCALHOST4, 9)).sync();
            ChannelFuture connectAgain = ipv4.connect(new InetSocketAddress(NetUtil.LOCALHOST4, 10)).await();
            assertInstanceOf(AlreadyConnectedException.class, connectAgain.cause());
        } finally {
            ipv4.close().sync();
        }
        // Closed: options throw, group requests and writes fail.
        assertThrows(io.netty.channel.ChannelException.class, () -> ipv4.config().setBroadcast(true));
        assertThrows(io.netty.channel.ChannelException.class, () -> ipv4.config().getReceiveBufferSize());
        assertFalse(ipv4.joinGroup(GROUP).await().isSuccess());
        assertFalse(ipv4.writeAndFlush(new DatagramPacket(Unpooled.buffer(1).writeByte(1),
                new InetSocketAddress(NetUtil.LOCALHOST4, 9))).await().isSuccess());
    }

    /** "socket:[inode]", what /proc says the channel's descriptor is: unique while the socket lives. */
    private static String socketOf(UcxDatagramChannel channel) throws IOException {
        String target = Files.readSymbolicLink(Paths.get("/proc/self/fd/" + channel.socket())).toString();
        assertTrue(target.startsWith("socket:["), target);
        return target;
    }

    private static boolean isOpenSomewhere(String socket) {
        return OpenDescriptors.targets().contains(socket);
    }

    /** Echoes each datagram to its sender. */
    private static final class DatagramEcho extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            ctx.writeAndFlush(new DatagramPacket(packet.content(), packet.sender()));
        }
    }

    /** What a channel reads, as strings, and where each read() batch ended. */
    private static final class Received extends ChannelInboundHandlerAdapter {
        private static final String BATCH_END = "\u0000end";
        private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                ByteBuf content = msg instanceof DatagramPacket ? ((DatagramPacket) msg).content() : (ByteBuf) msg;
                messages.add(content.toString(CharsetUtil.US_ASCII));
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            messages.add(BATCH_END);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            messages.add("exception: " + cause);
        }

        String next() throws InterruptedException {
            while (true) {
                String message = messages.poll(10, TimeUnit.SECONDS);
                assertNotNull(message, "nothing received");
                if (!BATCH_END.equals(message)) {
                    return message;
                }
            }
        }

        List<String> nextBatch() throws InterruptedException {
            List<String> batch = new ArrayList<>();
            while (true) {
                String message = messages.poll(10, TimeUnit.SECONDS);
                assertNotNull(message, "the read did not complete");
                if (BATCH_END.equals(message)) {
                    return batch;
                }
                batch.add(message);
            }
        }
    }
}
