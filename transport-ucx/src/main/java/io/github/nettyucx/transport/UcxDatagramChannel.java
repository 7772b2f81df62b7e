/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxIoEvent;
import io.github.nettyucx.loop.UcxIoOps;
import io.github.nettyucx.jni.UcxFd;
import io.github.nettyucx.jni.UcxNative;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AddressedEnvelope;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.IoEvent;
import io.netty.channel.IoRegistration;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.util.UncheckedBooleanSupplier;
import io.netty.util.internal.ObjectUtil;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.NotYetConnectedException;

/**
 * A {@link DatagramChannel} (UDP) for {@link UcxEventLoopGroup}s: UCX has no datagrams, so this is a plain
 * non-blocking UDP socket, created, read and written by the transport's native library and watched by the
 * loop's epoll like the side channels of UCX connections. It lets what runs on a UCX loop use UDP there too:
 * Netty's {@code DnsNameResolver} ({@code datagramChannelType(UcxDatagramChannel.class)}), or an
 * application's own datagrams.
 *
 * <p>It behaves as Netty's epoll {@code EpollDatagramChannel}: an IPv6 socket also sends and receives IPv4
 * (dual stack), the channel is active once bound or connected (or when registered, with
 * {@link io.netty.channel.ChannelOption#DATAGRAM_CHANNEL_ACTIVE_ON_REGISTRATION}), a connected channel reports
 * an ICMP port unreachable as a {@link java.net.PortUnreachableException} (to its next read or write), and it
 * writes {@link DatagramPacket}s, other {@link AddressedEnvelope}s of {@link ByteBuf}, and, once connected,
 * plain {@link ByteBuf}s. Heap buffers are copied to a direct buffer first ({@link UcxDatagramOutbound}); the
 * native calls on the socket are {@link UcxDatagramSocket}'s.
 */
public final class UcxDatagramChannel extends AbstractUcxChannel implements DatagramChannel {
    private static final ChannelMetadata METADATA = new ChannelMetadata(true, 16);

    private final UcxDatagramSocket udp;
    private final UcxDatagramChannelConfig config;
    private volatile boolean active;
    private volatile boolean connected;
    /** The epoll interest: reads wanted (after a read() until one is done, or always with auto-read)... */
    private boolean reading;
    /** ...and writes waiting for the socket buffer to drain. */
    private boolean writing;
    private boolean readPending;

    /** A channel on an IPv6 (dual-stack) socket, or an IPv4 one where the host or JVM has no IPv6. */
    public UcxDatagramChannel() {
        this((SocketProtocolFamily) null);
    }

    /**
     * A channel on a socket of the given family: {@link SocketProtocolFamily#INET6} sockets are dual-stack and
     * reach IPv4 addresses too; {@code null} picks as {@link #UcxDatagramChannel()} does.
     */
    public UcxDatagramChannel(SocketProtocolFamily family) {
        super(null, new UcxFd(-1));
        Ucx.ensureAvailability();
        udp = new UcxDatagramSocket(family);
        try {
            udp.open(fd);
        } catch (IOException e) {
            throw new ChannelException("could not create a UDP socket: " + e.getMessage(), e);
        }
        config = new UcxDatagramChannelConfig(this);
    }

    /**
     * As {@link #UcxDatagramChannel(SocketProtocolFamily)}, for code written against Netty's older family type
     * (as the other transports' datagram channels still take it).
     *
     * @deprecated use {@link #UcxDatagramChannel(SocketProtocolFamily)}
     */
    @Deprecated
    public UcxDatagramChannel(InternetProtocolFamily family) {
        this(family == null ? null : family.toSocketProtocolFamily());
    }


    /** Whether the socket is IPv6 (dual-stack). */
    boolean isIpv6() {
        return udp.isIpv6();
    }

    @Override
    public UcxDatagramChannelConfig config() {
        return config;
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    /** As Netty's epoll: bound or connected, or registered when active-on-registration is set. */
    @Override
    public boolean isActive() {
        return isOpen() && (active || config.isActiveOnOpen() && isRegistered());
    }

    @Override
    public boolean isConnected() {
        return connected;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) super.remoteAddress();
    }

    /** Multicast goes out of the interface of {@code index} (0: the routing table decides); any thread. */
    void multicastInterface(int index) throws IOException {
        fd.multicastInterface(udp.isIpv6(), index);
    }

    /** The socket, for the config's options, which any thread may set: -1 once closed. */
    int socket() {
        // open is volatile and cleared before fd: a closed channel never hands out a number the kernel reused.
        return isOpen() ? fd.get() : -1;
    }

    @Override
    protected void registered() {
        // Connectionless: once registered, the socket may be watched at once (if reads were asked for already).
        updateInterest();
    }

    private void updateInterest() {
        interest(reading ? (writing ? UcxIoOps.IN_OUT : UcxIoOps.IN) : (writing ? UcxIoOps.OUT : UcxIoOps.NONE));
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        local = udp.bind(fd, SocketAddresses.checkInet(localAddress));
        active = true;
    }


    /** Sets the default peer: datagrams from others are dropped by the kernel, plain buffers go to it. */
    private void doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws IOException {
        InetSocketAddress remoteInet = SocketAddresses.checkInet(remoteAddress);
        if (connected) {
            throw new AlreadyConnectedException();
        }
        if (localAddress != null) {
            local = udp.bind(fd, SocketAddresses.checkInet(localAddress));
        }
        InetSocketAddress bound = udp.connect(fd, remoteInet);
        // The address asked for (keeping its host name); the kernel's own only differs by IPv4 mapping.
        remote = remoteInet;
        local = bound;
        connected = true;
        active = true;
    }

    /** As Netty's epoll, a disconnected channel is inactive until it binds or connects again. */
    @Override
    protected void doDisconnect() throws Exception {
        InetSocketAddress bound = UcxDatagramSocket.disconnect(fd);
        connected = false;
        active = false;
        remote = null;
        local = bound;
    }

    @Override
    protected void doBeginRead() {
        readPending = true;
        if (!reading) {
            reading = true;
            updateInterest();
        }
    }

    /** Auto-read was switched off: stop watching for datagrams, unless a read() waits for one. */
    void autoReadCleared() {
        if (!isRegistered()) {
            return;
        }
        if (eventLoop().inEventLoop()) {
            stopReadingUnlessAsked();
        } else {
            eventLoop().execute(this::stopReadingUnlessAsked);
        }
    }

    private void stopReadingUnlessAsked() {
        if (reading && !readPending && !config.isAutoRead()) {
            reading = false;
            updateInterest();
        }
    }

    @Override
    protected void doClose() throws Exception {
        open = false;
        active = false;
        connected = false;
        closeOwnSocket();
    }

    /** The loop is gone and closes the socket (see {@link UcxUnsafe#abandon()}): no association is left. */
    @Override
    protected void abandonNative() {
        active = false;
        connected = false;
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        return UcxDatagramOutbound.filter(msg, alloc());
    }

    /**
     * Sends until the outbound buffer is empty, the socket buffer is full (then waits for EPOLLOUT) or
     * maxMessagesPerWrite are sent. A message that fails fails alone: the others may go to other peers.
     */
    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        int budget = maxMessagesPerWrite();
        while (budget > 0) {
            Object msg = in.current();
            if (msg == null) {
                break;
            }
            try {
                if (!udp.send(fd, msg, connected)) {
                    break;
                }
                if (local == null) {
                    // The first send bound the socket to a port of the kernel's choice.
                    local = SocketAddresses.decode(fd.localAddress());
                }
                in.remove();
            } catch (IOException | NotYetConnectedException e) {
                in.remove(e);
            }
            budget--;
        }
        boolean more = !in.isEmpty();
        if (more != writing) {
            writing = more;
            updateInterest();
        }
    }


    // Multicast: the requests go to the socket on the event loop, as epoll does.

    @Override
    public ChannelFuture joinGroup(InetAddress multicastAddress) {
        return joinGroup(multicastAddress, newPromise());
    }

    @Override
    public ChannelFuture joinGroup(InetAddress multicastAddress, ChannelPromise promise) {
        return membership(true, multicastAddress, config.getNetworkInterface(), null, promise);
    }

    @Override
    public ChannelFuture joinGroup(InetSocketAddress multicastAddress, NetworkInterface networkInterface) {
        return joinGroup(multicastAddress, networkInterface, newPromise());
    }

    @Override
    public ChannelFuture joinGroup(InetSocketAddress multicastAddress, NetworkInterface networkInterface,
                                   ChannelPromise promise) {
        return joinGroup(multicastAddress.getAddress(), networkInterface, null, promise);
    }

    @Override
    public ChannelFuture joinGroup(InetAddress multicastAddress, NetworkInterface networkInterface,
                                   InetAddress source) {
        return joinGroup(multicastAddress, networkInterface, source, newPromise());
    }

    @Override
    public ChannelFuture joinGroup(InetAddress multicastAddress, NetworkInterface networkInterface,
                                   InetAddress source, ChannelPromise promise) {
        ObjectUtil.checkNotNull(networkInterface, "networkInterface");
        return membership(true, multicastAddress, networkInterface, source, promise);
    }

    @Override
    public ChannelFuture leaveGroup(InetAddress multicastAddress) {
        return leaveGroup(multicastAddress, newPromise());
    }

    @Override
    public ChannelFuture leaveGroup(InetAddress multicastAddress, ChannelPromise promise) {
        return membership(false, multicastAddress, config.getNetworkInterface(), null, promise);
    }

    @Override
    public ChannelFuture leaveGroup(InetSocketAddress multicastAddress, NetworkInterface networkInterface) {
        return leaveGroup(multicastAddress, networkInterface, newPromise());
    }

    @Override
    public ChannelFuture leaveGroup(InetSocketAddress multicastAddress, NetworkInterface networkInterface,
                                    ChannelPromise promise) {
        return leaveGroup(multicastAddress.getAddress(), networkInterface, null, promise);
    }

    @Override
    public ChannelFuture leaveGroup(InetAddress multicastAddress, NetworkInterface networkInterface,
                                    InetAddress source) {
        return leaveGroup(multicastAddress, networkInterface, source, newPromise());
    }

    @Override
    public ChannelFuture leaveGroup(InetAddress multicastAddress, NetworkInterface networkInterface,
                                    InetAddress source, ChannelPromise promise) {
        ObjectUtil.checkNotNull(networkInterface, "networkInterface");
        return membership(false, multicastAddress, networkInterface, source, promise);
    }

    /**
     * Joins or leaves on the loop. Without an interface (neither given nor set with IP_MULTICAST_IF), the
     * kernel picks the one its routing table has for the group.
     */
    private ChannelFuture membership(boolean join, InetAddress group, NetworkInterface networkInterface,
                                     InetAddress source, ChannelPromise promise) {
        ObjectUtil.checkNotNull(group, "multicastAddress");
        if (eventLoop().inEventLoop()) {
            UcxDatagramSocket.membership(fd, join, group, networkInterface, source, promise);
        } else {
            eventLoop().execute(() -> UcxDatagramSocket.membership(fd, join, group, networkInterface, source,
                    promise));
        }
        return promise;
    }

    @Override
    public ChannelFuture block(InetAddress multicastAddress, NetworkInterface networkInterface,
                               InetAddress sourceToBlock) {
        return block(multicastAddress, networkInterface, sourceToBlock, newPromise());
    }

    @Override
    public ChannelFuture block(InetAddress multicastAddress, NetworkInterface networkInterface,
                               InetAddress sourceToBlock, ChannelPromise promise) {
        return promise.setFailure(new UnsupportedOperationException(
                "UcxDatagramChannel does not block multicast sources, as Netty's epoll channel; join the group for"
                        + " the wanted sources only (joinGroup with a source) instead"));
    }

    @Override
    public ChannelFuture block(InetAddress multicastAddress, InetAddress sourceToBlock) {
        return block(multicastAddress, sourceToBlock, newPromise());
    }

    @Override
    public ChannelFuture block(InetAddress multicastAddress, InetAddress sourceToBlock, ChannelPromise promise) {
        return block(multicastAddress, null, sourceToBlock, promise);
    }

    @Override
    protected UcxDatagramUnsafe newUnsafe() {
        return new UcxDatagramUnsafe();
    }

    /** Reads datagrams when the socket is readable, and writes again when it drained. */
    protected final class UcxDatagramUnsafe extends UcxUnsafe {
        UcxDatagramUnsafe() {
        }

        @Override
        public void connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
            if (!promise.setUncancellable() || !ensureOpen(promise)) {
                return;
            }
            try {
                boolean wasActive = isActive();
                doConnect(remoteAddress, localAddress);
                boolean nowActive = isActive();
                promise.trySuccess();
                if (!wasActive && nowActive) {
                    pipeline().fireChannelActive();
                }
            } catch (Throwable t) {
                promise.tryFailure(annotateConnectException(t, remoteAddress));
                closeIfClosed();
            }
        }

        /** While the socket is full, writes wait for EPOLLOUT instead of failing to send on every flush. */
        @Override
        protected void flush0() {
            if (!writing) {
                super.flush0();
            }
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            int ops = ((UcxIoEvent) event).epollEvents();
            if (ops == 0 || !fd.isOpen()) {
                return;
            }
            boolean error = (ops & UcxNative.EPOLLERR) != 0;
            if (writing && (error || (ops & UcxNative.EPOLLOUT) != 0)) {
                writeReady();
            }
            if (reading && (error || (ops & UcxNative.EPOLLIN) != 0)) {
                readReady();
            } else if (error && fd.isOpen()) {
                takeError();
            }
        }

        private void writeReady() {
            super.flush0();
            ChannelOutboundBuffer out = outboundBuffer();
            if (writing && (out == null || out.isEmpty())) {
                writing = false;
                updateInterest();
            }
        }

        /**
         * An error (an ICMP report on a connected socket) that no read took: epoll keeps reporting it until
         * it is taken, so it goes to the pipeline as a read's would.
         */
        private void takeError() {
            try {
                fd.takeError();
            } catch (IOException e) {
                pipeline().fireExceptionCaught(e);
            }
        }

        /**
         * Reads datagrams into buffers of the channel's {@link RecvByteBufAllocator}, as many as its handle allows
         * (maxMessagesPerRead). A failed read, such as a port unreachable reported to a connected channel, goes
         * to the pipeline; the channel stays open, as with Netty's other transports.
         */
        // Netty's Unsafe hands out its RecvByteBufAllocator.Handle, deprecated in favour of ExtendedHandle,
        // which a user's allocator need not implement.
        @SuppressWarnings("deprecation")
        private void readReady() {
            ChannelPipeline pipeline = pipeline();
            RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
            ByteBufAllocator allocator = config.getAllocator();
            handle.reset(config);
            Throwable failure = null;
            try {
                do {
                    DatagramPacket packet = udp.receive(fd, handle, allocator, local);
                    if (packet == null) {
                        break;
                    }
                    pipeline.fireChannelRead(packet);
                    readPending = false;
                } while (fd.isOpen() && continueReading(handle));
            } catch (Throwable t) {
                failure = t;
            }
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            if (failure != null) {
                pipeline.fireExceptionCaught(failure);
            }
            stopReadingUnlessAsked();
        }

        /** Datagrams shorter than the buffer are normal: only the message count limits a read. */
        @SuppressWarnings("deprecation")
        private boolean continueReading(RecvByteBufAllocator.Handle handle) {
            return handle instanceof RecvByteBufAllocator.ExtendedHandle
                    ? ((RecvByteBufAllocator.ExtendedHandle) handle).continueReading(
                            UncheckedBooleanSupplier.TRUE_SUPPLIER)
                    : handle.continueReading();
        }
    }
}
