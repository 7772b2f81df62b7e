/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxKernelOption;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.DatagramChannelConfig;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.Enumeration;
import java.util.Map;

import static io.netty.channel.ChannelOption.DATAGRAM_CHANNEL_ACTIVE_ON_REGISTRATION;
import static io.netty.channel.ChannelOption.IP_MULTICAST_ADDR;
import static io.netty.channel.ChannelOption.IP_MULTICAST_IF;
import static io.netty.channel.ChannelOption.IP_MULTICAST_LOOP_DISABLED;
import static io.netty.channel.ChannelOption.IP_MULTICAST_TTL;
import static io.netty.channel.ChannelOption.IP_TOS;
import static io.netty.channel.ChannelOption.SO_BROADCAST;
import static io.netty.channel.ChannelOption.SO_RCVBUF;
import static io.netty.channel.ChannelOption.SO_REUSEADDR;
import static io.netty.channel.ChannelOption.SO_SNDBUF;

/**
 * Configuration of a {@link UcxDatagramChannel}. The socket options are read from and written to its socket
 * at once, as Netty's epoll does; an IPv6 (dual-stack) socket gets the IP-level ones (traffic class, multicast
 * TTL, loop and interface) for both of its families. {@link UcxChannelOption#SO_REUSEPORT} is supported too.
 * Reads use a {@link FixedRecvByteBufAllocator} of 2048 bytes by default, as Netty's other datagram channels;
 * a longer datagram is cut to the buffer.
 */
public final class UcxDatagramChannelConfig extends DefaultChannelConfig implements DatagramChannelConfig {
    private static final UcxKernelOption KERNEL_SO_SNDBUF = UcxKernelOption.named("SO_SNDBUF");
    private static final UcxKernelOption KERNEL_SO_RCVBUF = UcxKernelOption.named("SO_RCVBUF");
    private static final UcxKernelOption KERNEL_SO_REUSEADDR = UcxKernelOption.named("SO_REUSEADDR");
    private static final UcxKernelOption KERNEL_SO_REUSEPORT = UcxKernelOption.named("SO_REUSEPORT");
    private static final UcxKernelOption KERNEL_SO_BROADCAST = UcxKernelOption.named("SO_BROADCAST");
    private static final UcxKernelOption KERNEL_IP_TOS = UcxKernelOption.named("IP_TOS", "IPV6_TCLASS");
    private static final UcxKernelOption KERNEL_MULTICAST_LOOP =
            UcxKernelOption.named("IP_MULTICAST_LOOP", "IPV6_MULTICAST_LOOP");
    private static final UcxKernelOption KERNEL_MULTICAST_TTL =
            UcxKernelOption.named("IP_MULTICAST_TTL", "IPV6_MULTICAST_HOPS");
    private final UcxDatagramChannel datagramChannel;
    private volatile boolean activeOnOpen;
    /** What IP_MULTICAST_IF was set to: the kernel reports an interface set by index inconsistently per family. */
    private volatile NetworkInterface multicastInterface;

    UcxDatagramChannelConfig(UcxDatagramChannel channel) {
        super(channel, new FixedRecvByteBufAllocator(2048));
        datagramChannel = channel;
    }

    @Override
    @SuppressWarnings("deprecation")
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), SO_BROADCAST, SO_RCVBUF, SO_SNDBUF, SO_REUSEADDR,
                UcxChannelOption.SO_REUSEPORT, IP_MULTICAST_LOOP_DISABLED, IP_MULTICAST_ADDR, IP_MULTICAST_IF,
                IP_MULTICAST_TTL, IP_TOS, DATAGRAM_CHANNEL_ACTIVE_ON_REGISTRATION);
    }

    @SuppressWarnings({"unchecked", "deprecation"})
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        if (option == SO_BROADCAST) {
            return (T) Boolean.valueOf(isBroadcast());
        }
        if (option == SO_RCVBUF) {
            return (T) Integer.valueOf(getReceiveBufferSize());
        }
        if (option == SO_SNDBUF) {
            return (T) Integer.valueOf(getSendBufferSize());
        }
        if (option == SO_REUSEADDR) {
            return (T) Boolean.valueOf(isReuseAddress());
        }
        if (option == UcxChannelOption.SO_REUSEPORT) {
            return (T) Boolean.valueOf(isReusePort());
        }
        if (option == IP_MULTICAST_LOOP_DISABLED) {
            return (T) Boolean.valueOf(isLoopbackModeDisabled());
        }
        if (option == IP_MULTICAST_ADDR) {
            return (T) getInterface();
        }
        if (option == IP_MULTICAST_IF) {
            return (T) getNetworkInterface();
        }
        if (option == IP_MULTICAST_TTL) {
            return (T) Integer.valueOf(getTimeToLive());
        }
        if (option == IP_TOS) {
            return (T) Integer.valueOf(getTrafficClass());
        }
        if (option == DATAGRAM_CHANNEL_ACTIVE_ON_REGISTRATION) {
            return (T) Boolean.valueOf(activeOnOpen);
        }
        return super.getOption(option);
    }

    @Override
    @SuppressWarnings("deprecation")
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        validate(option, value);
        if (option == SO_BROADCAST) {
            setBroadcast((Boolean) value);
        } else if (option == SO_RCVBUF) {
            setReceiveBufferSize((Integer) value);
        } else if (option == SO_SNDBUF) {
            setSendBufferSize((Integer) value);
        } else if (option == SO_REUSEADDR) {
            setReuseAddress((Boolean) value);
        } else if (option == UcxChannelOption.SO_REUSEPORT) {
            setReusePort((Boolean) value);
        } else if (option == IP_MULTICAST_LOOP_DISABLED) {
            setLoopbackModeDisabled((Boolean) value);
        } else if (option == IP_MULTICAST_ADDR) {
            setInterface((InetAddress) value);
        } else if (option == IP_MULTICAST_IF) {
            setNetworkInterface((NetworkInterface) value);
        } else if (option == IP_MULTICAST_TTL) {
            setTimeToLive((Integer) value);
        } else if (option == IP_TOS) {
            setTrafficClass((Integer) value);
        } else if (option == DATAGRAM_CHANNEL_ACTIVE_ON_REGISTRATION) {
            setActiveOnOpen((Boolean) value);
        } else {
            return super.setOption(option, value);
        }
        return true;
    }

    @Override
    protected void autoReadCleared() {
        datagramChannel.autoReadCleared();
    }

    private void setActiveOnOpen(boolean activeOnOpen) {
        if (channel.isRegistered()) {
            throw new IllegalStateException("DATAGRAM_CHANNEL_ACTIVE_ON_REGISTRATION can only be set before the"
                    + " channel is registered");
        }
        this.activeOnOpen = activeOnOpen;
    }

    boolean isActiveOnOpen() {
        return activeOnOpen;
    }

    /** The channel's socket; a closed channel has no options to read or set. */
    private int socket(String what) {
        int socket = datagramChannel.socket();
        if (socket < 0) {
            throw new ChannelException("cannot access " + what + " of " + datagramChannel + ": the channel is closed",
                    new ClosedChannelException());
        }
        return socket;
    }

    private int get(UcxKernelOption option) {
        try {
            return option.get(socket(option.toString()), datagramChannel.isIpv6());
        } catch (IOException e) {
            throw new ChannelException("could not read " + option + " of " + datagramChannel + ": " + e.getMessage(),
                    e);
        }
    }

    /** Sets {@code option}; an IP-level one for both families of a dual-stack socket, which sends IPv4 with the
     * IPv4 one. */
    private void set(UcxKernelOption option, int value) {
        int socket = socket(option.toString());
        try {
            if (option.perFamily() && datagramChannel.isIpv6()) {
                option.set(socket, true, value);
            }
            option.set(socket, false, value);
        } catch (IOException e) {
            throw new ChannelException("could not set " + option + " to " + value + " on " + datagramChannel + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public int getSendBufferSize() {
        return get(KERNEL_SO_SNDBUF);
    }

    @Override
    public UcxDatagramChannelConfig setSendBufferSize(int sendBufferSize) {
        set(KERNEL_SO_SNDBUF, sendBufferSize);
        return this;
    }

    @Override
    public int getReceiveBufferSize() {
        return get(KERNEL_SO_RCVBUF);
    }

    @Override
    public UcxDatagramChannelConfig setReceiveBufferSize(int receiveBufferSize) {
        set(KERNEL_SO_RCVBUF, receiveBufferSize);
        return this;
    }

    @Override
    public int getTrafficClass() {
        return get(KERNEL_IP_TOS);
    }

    @Override
    public UcxDatagramChannelConfig setTrafficClass(int trafficClass) {
        set(KERNEL_IP_TOS, trafficClass);
        return this;
    }

    @Override
    public boolean isReuseAddress() {
        return get(KERNEL_SO_REUSEADDR) != 0;
    }

    @Override
    public UcxDatagramChannelConfig setReuseAddress(boolean reuseAddress) {
        set(KERNEL_SO_REUSEADDR, reuseAddress ? 1 : 0);
        return this;
    }

    /** Whether {@link UcxChannelOption#SO_REUSEPORT} is set. */
    public boolean isReusePort() {
        return get(KERNEL_SO_REUSEPORT) != 0;
    }

    /** Sets {@link UcxChannelOption#SO_REUSEPORT}; before binding. */
    public UcxDatagramChannelConfig setReusePort(boolean reusePort) {
        set(KERNEL_SO_REUSEPORT, reusePort ? 1 : 0);
        return this;
    }

    @Override
    public boolean isBroadcast() {
        return get(KERNEL_SO_BROADCAST) != 0;
    }

    @Override
    public UcxDatagramChannelConfig setBroadcast(boolean broadcast) {
        set(KERNEL_SO_BROADCAST, broadcast ? 1 : 0);
        return this;
    }

    @Override
    public boolean isLoopbackModeDisabled() {
        return get(KERNEL_MULTICAST_LOOP) == 0;
    }

    @Override
    public UcxDatagramChannelConfig setLoopbackModeDisabled(boolean loopbackModeDisabled) {
        set(KERNEL_MULTICAST_LOOP, loopbackModeDisabled ? 0 : 1);
        return this;
    }

    @Override
    public int getTimeToLive() {
        return get(KERNEL_MULTICAST_TTL);
    }

    @Override
    public UcxDatagramChannelConfig setTimeToLive(int ttl) {
        set(KERNEL_MULTICAST_TTL, ttl);
        return this;
    }

    /** The first address of the interface multicast is sent from, or null while none was set. */
    @Override
    public InetAddress getInterface() {
        NetworkInterface networkInterface = multicastInterface;
        if (networkInterface == null) {
            return null;
        }
        Enumeration<InetAddress> addresses = networkInterface.getInetAddresses();
        return addresses.hasMoreElements() ? addresses.nextElement() : null;
    }

    /** Sends multicast from the interface that has this address. */
    @Override
    public UcxDatagramChannelConfig setInterface(InetAddress interfaceAddress) {
        NetworkInterface networkInterface;
        try {
            networkInterface = NetworkInterface.getByInetAddress(interfaceAddress);
        } catch (SocketException e) {
            throw new ChannelException("could not list the network interfaces: " + e.getMessage(), e);
        }
        if (networkInterface == null) {
            throw new ChannelException("no network interface has the address " + interfaceAddress
                    + " (IP_MULTICAST_ADDR takes an address of this host)");
        }
        return setNetworkInterface(networkInterface);
    }

    @Override
    public NetworkInterface getNetworkInterface() {
        return multicastInterface;
    }

    @Override
    public UcxDatagramChannelConfig setNetworkInterface(NetworkInterface networkInterface) {
        try {
            socket("IP_MULTICAST_IF"); // fails on a closed channel, in the words of the options
            datagramChannel.multicastInterface(networkInterface.getIndex());
        } catch (IOException e) {
            throw new ChannelException("could not set IP_MULTICAST_IF to " + networkInterface.getName() + " on "
                    + datagramChannel + ": " + e.getMessage(), e);
        }
        multicastInterface = networkInterface;
        return this;
    }

    @Override
    @Deprecated
    public UcxDatagramChannelConfig setMaxMessagesPerRead(int maxMessagesPerRead) {
        super.setMaxMessagesPerRead(maxMessagesPerRead);
        return this;
    }

    @Override
    public UcxDatagramChannelConfig setWriteSpinCount(int writeSpinCount) {
        super.setWriteSpinCount(writeSpinCount);
        return this;
    }

    @Override
    public UcxDatagramChannelConfig setConnectTimeoutMillis(int connectTimeoutMillis) {
        super.setConnectTimeoutMillis(connectTimeoutMillis);
        return this;
    }

    @Override
    public UcxDatagramChannelConfig setAllocator(ByteBufAllocator allocator) {
        super.setAllocator(allocator);
        return this;
    }

    @Override
    public UcxDatagramChannelConfig setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
        super.setRecvByteBufAllocator(allocator);
        return this;
    }

    @Override
    public UcxDatagramChannelConfig setAutoRead(boolean autoRead) {
        super.setAutoRead(autoRead);
        return this;
    }

    @Override
    public UcxDatagramChannelConfig setAutoClose(boolean autoClose) {
        super.setAutoClose(autoClose);
        return this;
    }

    @Override
    public UcxDatagramChannelConfig setMessageSizeEstimator(MessageSizeEstimator estimator) {
        super.setMessageSizeEstimator(estimator);
        return this;
    }

    @Override
    public UcxDatagramChannelConfig setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark) {
        super.setWriteBufferWaterMark(writeBufferWaterMark);
        return this;
    }

    @Override
    public UcxDatagramChannelConfig setMaxMessagesPerWrite(int maxMessagesPerWrite) {
        super.setMaxMessagesPerWrite(maxMessagesPerWrite);
        return this;
    }
}
