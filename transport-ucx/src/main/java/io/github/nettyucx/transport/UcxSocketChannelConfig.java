/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxConnector;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannelConfig;

import java.util.Map;

/**
 * Configuration of a {@link UcxSocketChannel}, over the options {@link UcxSocketOptions} declares. TCP options
 * have no meaning for UCX traffic; they are accepted and reported so that existing bootstraps run unchanged
 * (TCP_NODELAY and SO_KEEPALIVE describe the side channel, which always has both). On a connection that is
 * plain TCP (a peer that does not speak netty-ucx) those with a kernel name are the socket's, set and read as
 * on epoll.
 */
public final class UcxSocketChannelConfig extends DefaultChannelConfig implements SocketChannelConfig {
    private final UcxOptionValues options = new UcxOptionValues(UcxSocketOptions.TABLE);
    private final UcxPlainSocket plainSocket = new UcxPlainSocket();
    private final HandshakeSettings handshakeSettings = new HandshakeSettings();

    UcxSocketChannelConfig(UcxSocketChannel channel) {
        super(channel);
        // Buffers from registered memory: UCX sends them without looking up their registration.
        setAllocator(UcxByteBufAllocator.DEFAULT);
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), UcxSocketOptions.TABLE.channelOptions());
    }

    @Override
    public <T> T getOption(ChannelOption<T> option) {
        UcxOption<T> declared = UcxSocketOptions.TABLE.find(option);
        return declared != null ? get(declared) : super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        validate(option, value);
        UcxOption<T> declared = UcxSocketOptions.TABLE.find(option);
        if (declared == null) {
            return super.setOption(option, value);
        }
        set(declared, value);
        return true;
    }

    /** The socket's value of a TCP option when the connection is plain TCP; else the configured one. */
    private <T> T get(UcxOption<T> option) {
        T configured = options.get(option);
        return option.kernel() == null ? configured : plainSocket.get(option, configured);
    }

    private <T> void set(UcxOption<T> option, T value) {
        T checked = options.set(option, value);
        if (option.kernel() != null) {
            plainSocket.set(option, checked);
        }
    }

    /** Where TCP options go once the connection is plain TCP. */
    UcxPlainSocket plainSocket() {
        return plainSocket;
    }

    /**
     * Sets the TCP options the application chose on the socket of a connection that turned out to be plain TCP.
     * The others keep the socket's values: no delay and keepalive with short timers (as the handshake socket
     * has them, ucx_socket.c), and the kernel's buffer sizes, which grow with the traffic.
     */
    void applyTo(UcxPlainSocket socket) {
        for (UcxOption<?> option : UcxSocketOptions.TABLE.all()) {
            if (option.kernel() != null && options.isSet(option)) {
                applyTo(socket, option);
            }
        }
    }

    private <T> void applyTo(UcxPlainSocket socket, UcxOption<T> option) {
        socket.set(option, options.get(option));
    }

    /** What the channel's handshake reads of this configuration. */
    public UcxConnector.Settings handshakeSettings() {
        return handshakeSettings;
    }

    int recvWindow() {
        return options.get(UcxSocketOptions.UCX_RECV_WINDOW);
    }

    /** Which peers get UCX: {@link UcxChannelOption#TRUST}, or the process's default. */
    UcxTrust trust() {
        return options.get(UcxSocketOptions.TRUST);
    }

    public int clientBytesWaitMillis() {
        return options.get(UcxSocketOptions.CLIENT_BYTES_WAIT_MILLIS);
    }

    int handshakeTimeoutMillis() {
        return options.get(UcxSocketOptions.HANDSHAKE_TIMEOUT_MILLIS);
    }

    boolean isPlainTcpFallback() {
        return options.get(UcxSocketOptions.PLAIN_TCP_FALLBACK);
    }

    boolean isReceiveInPlace() {
        return options.get(UcxSocketOptions.RECEIVE_IN_PLACE);
    }

    int recvUnit() {
        return options.get(UcxSocketOptions.UCX_RECV_UNIT);
    }

    int sendSlots() {
        return options.get(UcxSocketOptions.UCX_SEND_SLOTS);
    }

    @Override
    public boolean isAllowHalfClosure() {
        return options.get(UcxSocketOptions.ALLOW_HALF_CLOSURE);
    }

    @Override
    public UcxSocketChannelConfig setAllowHalfClosure(boolean allowHalfClosure) {
        set(UcxSocketOptions.ALLOW_HALF_CLOSURE, allowHalfClosure);
        return this;
    }

    @Override
    public boolean isTcpNoDelay() {
        return get(UcxSocketOptions.TCP_NODELAY);
    }

    @Override
    public UcxSocketChannelConfig setTcpNoDelay(boolean tcpNoDelay) {
        set(UcxSocketOptions.TCP_NODELAY, tcpNoDelay);
        return this;
    }

    @Override
    public int getSoLinger() {
        return options.get(UcxSocketOptions.SO_LINGER);
    }

    @Override
    public UcxSocketChannelConfig setSoLinger(int soLinger) {
        set(UcxSocketOptions.SO_LINGER, soLinger);
        return this;
    }

    @Override
    public int getSendBufferSize() {
        return get(UcxSocketOptions.SO_SNDBUF);
    }

    @Override
    public UcxSocketChannelConfig setSendBufferSize(int sendBufferSize) {
        set(UcxSocketOptions.SO_SNDBUF, sendBufferSize);
        return this;
    }

    @Override
    public int getReceiveBufferSize() {
        return get(UcxSocketOptions.SO_RCVBUF);
    }

    @Override
    public UcxSocketChannelConfig setReceiveBufferSize(int receiveBufferSize) {
        set(UcxSocketOptions.SO_RCVBUF, receiveBufferSize);
        return this;
    }

    @Override
    public boolean isKeepAlive() {
        return get(UcxSocketOptions.SO_KEEPALIVE);
    }

    @Override
    public UcxSocketChannelConfig setKeepAlive(boolean keepAlive) {
        set(UcxSocketOptions.SO_KEEPALIVE, keepAlive);
        return this;
    }

    @Override
    public int getTrafficClass() {
        return get(UcxSocketOptions.IP_TOS);
    }

    @Override
    public UcxSocketChannelConfig setTrafficClass(int trafficClass) {
        set(UcxSocketOptions.IP_TOS, trafficClass);
        return this;
    }

    @Override
    public boolean isReuseAddress() {
        return options.get(UcxSocketOptions.SO_REUSEADDR);
    }

    @Override
    public UcxSocketChannelConfig setReuseAddress(boolean reuseAddress) {
        set(UcxSocketOptions.SO_REUSEADDR, reuseAddress);
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

    private final class HandshakeSettings implements UcxConnector.Settings {
        @Override
        public int connectTimeoutMillis() {
            return getConnectTimeoutMillis();
        }

        @Override
        public boolean plainTcpFallback() {
            return isPlainTcpFallback();
        }

        @Override
        public int handshakeTimeoutMillis() {
            return UcxSocketChannelConfig.this.handshakeTimeoutMillis();
        }

        @Override
        public int clientBytesWaitMillis() {
            return UcxSocketChannelConfig.this.clientBytesWaitMillis();
        }

        @Override
        public UcxTrust trust() {
            return UcxSocketChannelConfig.this.trust();
        }

        @Override
        public int recvWindow() {
            return UcxSocketChannelConfig.this.recvWindow();
        }

        @Override
        public int recvUnit() {
            return UcxSocketChannelConfig.this.recvUnit();
        }
    }
}
