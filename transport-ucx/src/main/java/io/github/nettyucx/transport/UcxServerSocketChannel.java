/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxHandshakeLimits;
import io.github.nettyucx.loop.UcxIoEvent;
import io.github.nettyucx.loop.UcxIoOps;
import io.github.nettyucx.jni.UcxFd;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.IoEvent;
import io.netty.channel.IoRegistration;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.socket.ServerSocketChannel;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A {@link ServerSocketChannel} for UCX connections. It listens on a TCP address (port 0 picks a
 * free port, reported by {@link #localAddress()}); each accepted socket becomes the side channel
 * of a {@link UcxSocketChannel}, which exchanges UCP worker addresses with the client on the
 * child event loop and creates its UCX endpoint on that loop's own worker.
 */
public final class UcxServerSocketChannel extends AbstractUcxChannel implements ServerSocketChannel {
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);

    private final UcxServerSocketChannelConfig config = new UcxServerSocketChannelConfig(this);
    private volatile boolean bound;
    private boolean readPending;

    public UcxServerSocketChannel() {
        super(null, new UcxFd(-1));
    }

    @Override
    public UcxServerSocketChannelConfig config() {
        return config;
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public boolean isActive() {
        return bound && isOpen();
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return null;
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        InetSocketAddress address = SocketAddresses.checkInet(localAddress);
        fd.ownNewStream(address.getAddress() instanceof Inet6Address);
        try {
            fd.bindListen(SocketAddresses.ip(address), address.getPort(), config.getBacklog());
        } catch (IOException e) {
            fd.closeQuietly();
            throw e;
        }
        local = SocketAddresses.decode(fd.localAddress());
        bound = true;
    }

    @Override
    protected void doBeginRead() {
        readPending = true;
        interest(UcxIoOps.IN);
    }

    @Override
    protected void doClose() throws Exception {
        open = false;
        bound = false;
        closeOwnSocket();
    }

    // A listening channel has no peer: like Netty's other server channels, it neither disconnects nor writes.
    @Override
    protected void doDisconnect() {
        throw new UnsupportedOperationException("a server channel has no connection to disconnect");
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        throw new UnsupportedOperationException("a server channel does not write; write to its child channels");
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        throw new UnsupportedOperationException("a server channel does not write; write to its child channels");
    }

    @Override
    protected UcxServerUnsafe newUnsafe() {
        return new UcxServerUnsafe();
    }

    /** Accepts side-channel sockets; the children do their UCX handshake on their own loops. */
    protected final class UcxServerUnsafe extends UcxUnsafe {
        UcxServerUnsafe() {
        }

        @Override
        public void connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
            promise.setFailure(new UnsupportedOperationException("a server channel does not connect"));
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            if (((UcxIoEvent) event).epollEvents() != 0) {
                acceptReady();
            }
        }

        // Netty's Unsafe hands out its RecvByteBufAllocator.Handle, deprecated in favour of ExtendedHandle,
        // which a user's allocator need not implement.
        @SuppressWarnings("deprecation")
        private void acceptReady() {
            if (!isOpen()) {
                return;
            }
            ChannelPipeline pipeline = pipeline();
            RecvByteBufAllocator.Handle allocHandle = recvBufAllocHandle();
            allocHandle.reset(config);
            Throwable failure = null;
            try {
                do {
                    UcxFd child = fd.accept();
                    if (child == null) {
                        break;
                    }
                    allocHandle.lastBytesRead(1);
                    allocHandle.incMessagesRead(1);
                    readPending = false;
                    UcxSocketChannel accepted = newChild(child);
                    if (accepted != null) {
                        pipeline.fireChannelRead(accepted);
                    }
                } while (allocHandle.continueReading());
            } catch (Throwable t) {
                failure = t;
            }
            allocHandle.readComplete();
            pipeline.fireChannelReadComplete();
            if (failure != null) {
                pipeline.fireExceptionCaught(failure);
            }
            if (!readPending && !config.isAutoRead()) {
                interest(UcxIoOps.NONE);
            }
        }

        /**
         * The channel of an accepted socket. Every socket is admitted (plain TCP clients included): where the server
         * has as many handshakes pending as it allows, the oldest of the source holding the most is shed instead
         * ({@link UcxHandshakeLimits}).
         */
        private UcxSocketChannel newChild(UcxFd child) throws IOException {
            UcxHandshakeLimits.Slot handshakeSlot;
            try {
                InetSocketAddress remote = SocketAddresses.decode(child.remoteAddress());
                handshakeSlot = config.handshakeLimits.admit(remote == null ? null : remote.getAddress());
            } catch (Throwable t) {
                child.closeQuietly();
                throw t;
            }
            try {
                UcxSocketChannel accepted = new UcxSocketChannel(UcxServerSocketChannel.this, child, handshakeSlot);
                handshakeSlot.onShed(accepted::shedHandshake);
                return accepted;
            } catch (Throwable t) {
                // OutOfMemoryError included: the socket must not outlive a channel that never existed.
                handshakeSlot.run();
                child.closeQuietly();
                throw t;
            }
        }
    }
}
