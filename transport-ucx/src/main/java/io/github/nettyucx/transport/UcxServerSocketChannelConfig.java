/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxHandshakeLimits;
import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.ServerSocketChannelConfig;
import io.netty.util.NetUtil;
import io.netty.util.internal.ObjectUtil;

import java.util.Map;

import static io.github.nettyucx.transport.UcxChannelOption.MAX_PENDING_HANDSHAKES;
import static io.github.nettyucx.transport.UcxChannelOption.MAX_PENDING_HANDSHAKES_PER_ADDRESS;
import static io.netty.channel.ChannelOption.SO_BACKLOG;
import static io.netty.channel.ChannelOption.SO_RCVBUF;
import static io.netty.channel.ChannelOption.SO_REUSEADDR;

/**
 * Configuration of a {@link UcxServerSocketChannel}: the backlog applies to its listening socket;
 * buffer sizes are accepted and reported only.
 */
public final class UcxServerSocketChannelConfig extends DefaultChannelConfig implements ServerSocketChannelConfig {
    private volatile int backlog = NetUtil.SOMAXCONN;
    final UcxHandshakeLimits handshakeLimits = new UcxHandshakeLimits();
    private volatile boolean reuseAddress = true;
    private volatile int receiveBufferSize = UcxSocketOptions.DEFAULT_RECV_WINDOW
            * UcxSocketOptions.DEFAULT_RECV_UNIT;

    UcxServerSocketChannelConfig(UcxServerSocketChannel channel) {
        super(channel);
        // Buffers from registered memory: UCX sends them without looking up their registration.
        setAllocator(UcxByteBufAllocator.DEFAULT);
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), SO_BACKLOG, SO_REUSEADDR, SO_RCVBUF,
                MAX_PENDING_HANDSHAKES, MAX_PENDING_HANDSHAKES_PER_ADDRESS);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        if (option == SO_BACKLOG) {
            return (T) Integer.valueOf(getBacklog());
        }
        if (option == SO_REUSEADDR) {
            return (T) Boolean.valueOf(isReuseAddress());
        }
        if (option == SO_RCVBUF) {
            return (T) Integer.valueOf(getReceiveBufferSize());
        }
        if (option == MAX_PENDING_HANDSHAKES) {
            return (T) Integer.valueOf(handshakeLimits.maxPending());
        }
        if (option == MAX_PENDING_HANDSHAKES_PER_ADDRESS) {
            return (T) Integer.valueOf(handshakeLimits.maxPendingPerAddress());
        }
        return super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        validate(option, value);
        if (option == SO_BACKLOG) {
            setBacklog((Integer) value);
        } else if (option == SO_REUSEADDR) {
            setReuseAddress((Boolean) value);
        } else if (option == SO_RCVBUF) {
            setReceiveBufferSize((Integer) value);
        } else if (option == MAX_PENDING_HANDSHAKES) {
            handshakeLimits.maxPending(ObjectUtil.checkPositive((Integer) value, "MAX_PENDING_HANDSHAKES"));
        } else if (option == MAX_PENDING_HANDSHAKES_PER_ADDRESS) {
            handshakeLimits.maxPendingPerAddress(ObjectUtil.checkPositive((Integer) value,
                    "MAX_PENDING_HANDSHAKES_PER_ADDRESS"));
        } else {
            return super.setOption(option, value);
        }
        return true;
    }

    @Override
    public int getBacklog() {
        return backlog;
    }

    @Override
    public UcxServerSocketChannelConfig setBacklog(int backlog) {
        this.backlog = Math.max(1, backlog);
        return this;
    }

    @Override
    public boolean isReuseAddress() {
        return reuseAddress;
    }

    @Override
    public UcxServerSocketChannelConfig setReuseAddress(boolean reuseAddress) {
        this.reuseAddress = reuseAddress;
        return this;
    }

    @Override
    public int getReceiveBufferSize() {
        return receiveBufferSize;
    }

    @Override
    public UcxServerSocketChannelConfig setReceiveBufferSize(int receiveBufferSize) {
        this.receiveBufferSize = receiveBufferSize;
        return this;
    }

    @Override
    public UcxServerSocketChannelConfig setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
        return this;
    }

    @Override
    public UcxServerSocketChannelConfig setConnectTimeoutMillis(int connectTimeoutMillis) {
        super.setConnectTimeoutMillis(connectTimeoutMillis);
        return this;
    }

    @Override
    @Deprecated
    public UcxServerSocketChannelConfig setMaxMessagesPerRead(int maxMessagesPerRead) {
        super.setMaxMessagesPerRead(maxMessagesPerRead);
        return this;
    }

    @Override
    public UcxServerSocketChannelConfig setWriteSpinCount(int writeSpinCount) {
        super.setWriteSpinCount(writeSpinCount);
        return this;
    }

    @Override
    public UcxServerSocketChannelConfig setAllocator(ByteBufAllocator allocator) {
        super.setAllocator(allocator);
        return this;
    }

    @Override
    public UcxServerSocketChannelConfig setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
        super.setRecvByteBufAllocator(allocator);
        return this;
    }

    @Override
    public UcxServerSocketChannelConfig setAutoRead(boolean autoRead) {
        super.setAutoRead(autoRead);
        return this;
    }

    @Override
    @Deprecated
    public UcxServerSocketChannelConfig setWriteBufferHighWaterMark(int writeBufferHighWaterMark) {
        super.setWriteBufferHighWaterMark(writeBufferHighWaterMark);
        return this;
    }

    @Override
    @Deprecated
    public UcxServerSocketChannelConfig setWriteBufferLowWaterMark(int writeBufferLowWaterMark) {
        super.setWriteBufferLowWaterMark(writeBufferLowWaterMark);
        return this;
    }

    @Override
    public UcxServerSocketChannelConfig setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark) {
        super.setWriteBufferWaterMark(writeBufferWaterMark);
        return this;
    }

    @Override
    public UcxServerSocketChannelConfig setMessageSizeEstimator(MessageSizeEstimator estimator) {
        super.setMessageSizeEstimator(estimator);
        return this;
    }
}
