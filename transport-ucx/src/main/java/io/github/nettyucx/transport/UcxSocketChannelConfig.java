/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannelConfig;
import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.SystemPropertyUtil;

import java.util.Map;

import static io.netty.channel.ChannelOption.ALLOW_HALF_CLOSURE;
import static io.netty.channel.ChannelOption.IP_TOS;
import static io.netty.channel.ChannelOption.SO_KEEPALIVE;
import static io.netty.channel.ChannelOption.SO_LINGER;
import static io.netty.channel.ChannelOption.SO_RCVBUF;
import static io.netty.channel.ChannelOption.SO_REUSEADDR;
import static io.netty.channel.ChannelOption.SO_SNDBUF;
import static io.netty.channel.ChannelOption.TCP_NODELAY;
import static io.github.nettyucx.transport.UcxChannelOption.UCX_RECV_UNIT;
import static io.github.nettyucx.transport.UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS;
import static io.github.nettyucx.transport.UcxChannelOption.PLAIN_TCP_FALLBACK;
import static io.github.nettyucx.transport.UcxChannelOption.RECEIVE_IN_PLACE;
import static io.github.nettyucx.transport.UcxChannelOption.UCX_RECV_WINDOW;
import static io.github.nettyucx.transport.UcxChannelOption.TRUST;
import static io.github.nettyucx.transport.UcxChannelOption.UCX_SEND_SLOTS;

/**
 * Configuration of a {@link UcxSocketChannel}. TCP options have no meaning for UCX traffic; they are
 * accepted and reported so that existing bootstraps run unchanged (TCP_NODELAY and SO_KEEPALIVE
 * describe the side channel, which always has both). On a connection that is plain TCP (a peer that does
 * not speak netty-ucx) TCP_NODELAY, SO_KEEPALIVE, SO_SNDBUF, SO_RCVBUF and IP_TOS are the socket's, set
 * and read as on epoll.
 */
public final class UcxSocketChannelConfig extends DefaultChannelConfig implements SocketChannelConfig {
    static final int DEFAULT_RECV_WINDOW = 8;
    static final int DEFAULT_RECV_UNIT = 64 * 1024;
    static final int DEFAULT_SEND_SLOTS = 8;
    static final int DEFAULT_CLIENT_BYTES_WAIT_MILLIS = 200;
    static final boolean DEFAULT_PLAIN_TCP_FALLBACK =
            SystemPropertyUtil.getBoolean("io.github.nettyucx.plainTcpFallback", false);
    private static final int MAX_RECV_WINDOW = 1 << 16;
    private volatile boolean allowHalfClosure;
    private volatile boolean tcpNoDelay = true;
    private volatile boolean keepAlive = true;
    private volatile int soLinger = -1;
    private volatile int sendBufferSize = DEFAULT_SEND_SLOTS * DEFAULT_RECV_UNIT;
    private volatile int receiveBufferSize = DEFAULT_RECV_WINDOW * DEFAULT_RECV_UNIT;
    private volatile int trafficClass;
    private volatile boolean reuseAddress;
    private volatile int recvWindow = DEFAULT_RECV_WINDOW;
    /** Null: the process default, read when a connection first needs it. */
    private volatile UcxTrust trust;
    private volatile int recvUnit = DEFAULT_RECV_UNIT;
    private volatile int sendSlots = DEFAULT_SEND_SLOTS;
    private volatile int clientBytesWaitMillis = DEFAULT_CLIENT_BYTES_WAIT_MILLIS;
    private volatile boolean plainTcpFallback = DEFAULT_PLAIN_TCP_FALLBACK;
    private volatile boolean receiveInPlace = true;
    /** Whether the application chose the socket buffers' sizes: a plain TCP socket keeps the kernel's otherwise. */
    private volatile boolean sendBufferSizeSet;
    private volatile boolean receiveBufferSizeSet;
    private final UcxPlainSocket plainSocket = new UcxPlainSocket();

    UcxSocketChannelConfig(UcxSocketChannel channel) {
        super(channel);
        // Buffers from registered memory: UCX sends them without looking up their registration.
        setAllocator(UcxByteBufAllocator.DEFAULT);
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), ALLOW_HALF_CLOSURE, TCP_NODELAY, SO_KEEPALIVE, SO_LINGER, SO_SNDBUF,
                SO_RCVBUF, IP_TOS, SO_REUSEADDR, UCX_RECV_WINDOW, UCX_RECV_UNIT, UCX_SEND_SLOTS, TRUST,
                CLIENT_BYTES_WAIT_MILLIS, PLAIN_TCP_FALLBACK, RECEIVE_IN_PLACE);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        if (option == ALLOW_HALF_CLOSURE) {
            return (T) Boolean.valueOf(isAllowHalfClosure());
        }
        if (option == TCP_NODELAY) {
            return (T) Boolean.valueOf(isTcpNoDelay());
        }
        if (option == SO_KEEPALIVE) {
            return (T) Boolean.valueOf(isKeepAlive());
        }
        if (option == SO_LINGER) {
            return (T) Integer.valueOf(getSoLinger());
        }
        if (option == SO_SNDBUF) {
            return (T) Integer.valueOf(getSendBufferSize());
        }
        if (option == SO_RCVBUF) {
            return (T) Integer.valueOf(getReceiveBufferSize());
        }
        if (option == IP_TOS) {
            return (T) Integer.valueOf(getTrafficClass());
        }
        if (option == SO_REUSEADDR) {
            return (T) Boolean.valueOf(isReuseAddress());
        }
        if (option == UCX_RECV_WINDOW) {
            return (T) Integer.valueOf(recvWindow);
        }
        if (option == UCX_RECV_UNIT) {
            return (T) Integer.valueOf(recvUnit);
        }
        if (option == UCX_SEND_SLOTS) {
            return (T) Integer.valueOf(sendSlots);
        }
        if (option == CLIENT_BYTES_WAIT_MILLIS) {
            return (T) Integer.valueOf(clientBytesWaitMillis);
        }
        if (option == PLAIN_TCP_FALLBACK) {
            return (T) Boolean.valueOf(plainTcpFallback);
        }
        if (option == RECEIVE_IN_PLACE) {
            return (T) Boolean.valueOf(receiveInPlace);
        }
        if (option == TRUST) {
            return (T) trust();
        }
        return super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        validate(option, value);
        if (option == ALLOW_HALF_CLOSURE) {
            setAllowHalfClosure((Boolean) value);
        } else if (option == TCP_NODELAY) {
            setTcpNoDelay((Boolean) value);
        } else if (option == SO_KEEPALIVE) {
            setKeepAlive((Boolean) value);
        } else if (option == SO_LINGER) {
            setSoLinger((Integer) value);
        } else if (option == SO_SNDBUF) {
            setSendBufferSize((Integer) value);
        } else if (option == SO_RCVBUF) {
            setReceiveBufferSize((Integer) value);
        } else if (option == IP_TOS) {
            setTrafficClass((Integer) value);
        } else if (option == SO_REUSEADDR) {
            setReuseAddress((Boolean) value);
        } else if (option == UCX_RECV_WINDOW) {
            recvWindow = ObjectUtil.checkInRange((Integer) value, 1, MAX_RECV_WINDOW, "UCX_RECV_WINDOW");
        } else if (option == UCX_RECV_UNIT) {
            recvUnit = ObjectUtil.checkInRange((Integer) value, 64, 64 * 1024 * 1024, "UCX_RECV_UNIT");
        } else if (option == UCX_SEND_SLOTS) {
            sendSlots = ObjectUtil.checkInRange((Integer) value, 1, MAX_RECV_WINDOW, "UCX_SEND_SLOTS");
        } else if (option == CLIENT_BYTES_WAIT_MILLIS) {
            clientBytesWaitMillis = ObjectUtil.checkPositiveOrZero((Integer) value, "CLIENT_BYTES_WAIT_MILLIS");
        } else if (option == PLAIN_TCP_FALLBACK) {
            plainTcpFallback = (Boolean) value;
        } else if (option == RECEIVE_IN_PLACE) {
            receiveInPlace = (Boolean) value;
        } else if (option == TRUST) {
            trust = ObjectUtil.checkNotNull((UcxTrust) value, "TRUST");
        } else {
            return super.setOption(option, value);
        }
        return true;
    }

    /** Where TCP options go once the connection is plain TCP. */
    UcxPlainSocket plainSocket() {
        return plainSocket;
    }

    /**
     * Sets the configured TCP options on the socket of a connection that turned out to be plain TCP. Its keepalive
     * stays on (the handshake socket has it, with short timers) unless the application turned it off; the
     * buffers keep the kernel's sizes, which grow with the traffic, unless the application chose sizes.
     */
    void applyTo(UcxPlainSocket socket) {
        socket.set(UcxPlainSocket.Option.TCP_NODELAY, tcpNoDelay ? 1 : 0);
        if (!keepAlive) {
            socket.set(UcxPlainSocket.Option.SO_KEEPALIVE, 0);
        }
        if (sendBufferSizeSet) {
            socket.set(UcxPlainSocket.Option.SO_SNDBUF, sendBufferSize);
        }
        if (receiveBufferSizeSet) {
            socket.set(UcxPlainSocket.Option.SO_RCVBUF, receiveBufferSize);
        }
        if (trafficClass != 0) {
            socket.set(UcxPlainSocket.Option.IP_TOS, trafficClass);
        }
    }

    int recvWindow() {
        return recvWindow;
    }

    /** Which peers get UCX: {@link UcxChannelOption#TRUST}, or the process's default. */
    UcxTrust trust() {
        UcxTrust configured = trust;
        return configured != null ? configured : UcxTrust.processDefault();
    }

    int clientBytesWaitMillis() {
        return clientBytesWaitMillis;
    }

    boolean isPlainTcpFallback() {
        return plainTcpFallback;
    }

    boolean isReceiveInPlace() {
        return receiveInPlace;
    }

    int recvUnit() {
        return recvUnit;
    }

    int sendSlots() {
        return sendSlots;
    }

    @Override
    public boolean isAllowHalfClosure() {
        return allowHalfClosure;
    }

    @Override
    public UcxSocketChannelConfig setAllowHalfClosure(boolean allowHalfClosure) {
        this.allowHalfClosure = allowHalfClosure;
        return this;
    }

    @Override
    public boolean isTcpNoDelay() {
        return plainSocket.get(UcxPlainSocket.Option.TCP_NODELAY, tcpNoDelay ? 1 : 0) != 0;
    }

    @Override
    public UcxSocketChannelConfig setTcpNoDelay(boolean tcpNoDelay) {
        this.tcpNoDelay = tcpNoDelay;
        plainSocket.set(UcxPlainSocket.Option.TCP_NODELAY, tcpNoDelay ? 1 : 0);
        return this;
    }

    @Override
    public int getSoLinger() {
        return soLinger;
    }

    @Override
    public UcxSocketChannelConfig setSoLinger(int soLinger) {
        this.soLinger = soLinger;
        return this;
    }

    @Override
    public int getSendBufferSize() {
        return plainSocket.get(UcxPlainSocket.Option.SO_SNDBUF, sendBufferSize);
    }

    @Override
    public UcxSocketChannelConfig setSendBufferSize(int sendBufferSize) {
        this.sendBufferSize = sendBufferSize;
        sendBufferSizeSet = true;
        plainSocket.set(UcxPlainSocket.Option.SO_SNDBUF, sendBufferSize);
        return this;
    }

    @Override
    public int getReceiveBufferSize() {
        return plainSocket.get(UcxPlainSocket.Option.SO_RCVBUF, receiveBufferSize);
    }

    @Override
    public UcxSocketChannelConfig setReceiveBufferSize(int receiveBufferSize) {
        this.receiveBufferSize = receiveBufferSize;
        receiveBufferSizeSet = true;
        plainSocket.set(UcxPlainSocket.Option.SO_RCVBUF, receiveBufferSize);
        return this;
    }

    @Override
    public boolean isKeepAlive() {
        return plainSocket.get(UcxPlainSocket.Option.SO_KEEPALIVE, keepAlive ? 1 : 0) != 0;
    }

    @Override
    public UcxSocketChannelConfig setKeepAlive(boolean keepAlive) {
        this.keepAlive = keepAlive;
        plainSocket.set(UcxPlainSocket.Option.SO_KEEPALIVE, keepAlive ? 1 : 0);
        return this;
    }

    @Override
    public int getTrafficClass() {
        return plainSocket.get(UcxPlainSocket.Option.IP_TOS, trafficClass);
    }

    @Override
    public UcxSocketChannelConfig setTrafficClass(int trafficClass) {
        this.trafficClass = trafficClass;
        plainSocket.set(UcxPlainSocket.Option.IP_TOS, trafficClass);
        return this;
    }

    @Override
    public boolean isReuseAddress() {
        return reuseAddress;
    }

    @Override
    public UcxSocketChannelConfig setReuseAddress(boolean reuseAddress) {
        this.reuseAddress = reuseAddress;
        return this;
    }

    @Override
    public UcxSocketChannelConfig setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
        return this;
    }

    @Override
    public UcxSocketChannelConfig setConnectTimeoutMillis(int connectTimeoutMillis) {
        super.setConnectTimeoutMillis(connectTimeoutMillis);
        return this;
    }

    @Override
    @Deprecated
    public UcxSocketChannelConfig setMaxMessagesPerRead(int maxMessagesPerRead) {
        super.setMaxMessagesPerRead(maxMessagesPerRead);
        return this;
    }

    @Override
    public UcxSocketChannelConfig setWriteSpinCount(int writeSpinCount) {
        super.setWriteSpinCount(writeSpinCount);
        return this;
    }

    @Override
    public UcxSocketChannelConfig setAllocator(ByteBufAllocator allocator) {
        super.setAllocator(allocator);
        return this;
    }

    @Override
    public UcxSocketChannelConfig setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
        super.setRecvByteBufAllocator(allocator);
        return this;
    }

    @Override
    public UcxSocketChannelConfig setAutoRead(boolean autoRead) {
        super.setAutoRead(autoRead);
        return this;
    }

    @Override
    public UcxSocketChannelConfig setAutoClose(boolean autoClose) {
        super.setAutoClose(autoClose);
        return this;
    }

    @Override
    @Deprecated
    public UcxSocketChannelConfig setWriteBufferHighWaterMark(int writeBufferHighWaterMark) {
        super.setWriteBufferHighWaterMark(writeBufferHighWaterMark);
        return this;
    }

    @Override
    @Deprecated
    public UcxSocketChannelConfig setWriteBufferLowWaterMark(int writeBufferLowWaterMark) {
        super.setWriteBufferLowWaterMark(writeBufferLowWaterMark);
        return this;
    }

    @Override
    public UcxSocketChannelConfig setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark) {
        super.setWriteBufferWaterMark(writeBufferWaterMark);
        return this;
    }

    @Override
    public UcxSocketChannelConfig setMessageSizeEstimator(MessageSizeEstimator estimator) {
        super.setMessageSizeEstimator(estimator);
        return this;
    }

    @Override
    protected void autoReadCleared() {
        ((UcxSocketChannel) channel).clearReadPending();
    }
}
