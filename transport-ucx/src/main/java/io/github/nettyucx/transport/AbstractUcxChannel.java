/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxIoHandle;
import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.loop.UcxIoOps;
import io.github.nettyucx.loop.UcxLoopSeat;
import io.github.nettyucx.jni.UcxFd;
import io.netty.channel.AbstractChannel;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * What UCX socket and server channels share: a side-channel socket watched by the loop's epoll,
 * and the registration with a {@link UcxIoHandler}.
 */
abstract class AbstractUcxChannel extends AbstractChannel {
    /** The channel's socket: see {@link UcxFd} for who may close it. */
    final UcxFd fd;
    protected volatile InetSocketAddress local;
    protected volatile InetSocketAddress remote;
    /** What the event loop returned: cancelling through it keeps the loop's own bookkeeping right. */
    private IoRegistration ioRegistration;
    private UcxLoopSeat registration;

    AbstractUcxChannel(Channel parent, UcxFd fd) {
        super(parent);
        this.fd = fd;
    }

    final UcxLoopSeat registration() {
        return registration;
    }

    /** Sets the epoll interest of the side-channel socket; {@link UcxIoOps#NONE} stops watching it. */
    final void interest(UcxIoOps ops) {
        if (registration != null && registration.isValid()) {
            registration.submit(ops);
        }
    }

    @Override
    protected boolean isCompatible(EventLoop loop) {
        return loop instanceof IoEventLoop && ((IoEventLoop) loop).isCompatible(UcxUnsafe.class);
    }

    @Override
    protected void doRegister(ChannelPromise promise) {
        ((IoEventLoop) eventLoop()).register((UcxUnsafe) unsafe()).addListener(f -> {
            if (!f.isSuccess()) {
                promise.setFailure(f.cause());
                return;
            }
            ioRegistration = (IoRegistration) f.getNow();
            registration = ioRegistration.attachment();
            try {
                registered();
                promise.setSuccess();
            } catch (Throwable t) {
                promise.setFailure(t);
            }
        });
    }

    /** Runs on the event loop once the channel is registered with its handler. */
    protected void registered() throws Exception {
    }

    @Override
    protected void doDeregister() {
        IoRegistration current = ioRegistration;
        if (current != null) {
            current.cancel();
        }
    }

    @Override
    protected SocketAddress localAddress0() {
        return local;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return remote;
    }

    /** Cleared by {@code doClose()}: a channel with no socket yet (not connected or bound) is open. */
    protected volatile boolean open = true;

    @Override
    public boolean isOpen() {
        return open;
    }

    /** The unsafe of every UCX channel is the handle its event loop dispatches to. */
    protected abstract class UcxUnsafe extends AbstractUnsafe implements UcxIoHandle {
        @Override
        public boolean workerLost(IOException cause) {
            return false;
        }

        @Override
        public int fd() {
            return fd.get();
        }

        @Override
        public void close() {
            close(voidPromise());
        }

        @Override
        public void abandon() {
            open = false;
            abandonNative();
            fd.closeQuietly();
        }
    }

    /**
     * Takes the channel's own socket out of the loop's epoll set (first, so that its number can be reused) and
     * closes it: the close of a channel whose socket carries nothing else.
     */
    protected final void closeOwnSocket() throws IOException {
        UcxLoopSeat registration = registration();
        if (registration != null) {
            registration.removeFromEpoll();
        }
        fd.close();
    }

    /** Forgets native state that the worker frees on its own (see {@link UcxUnsafe#abandon()}). */
    protected void abandonNative() {
    }
}
