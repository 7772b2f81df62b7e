/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;

import java.net.InetSocketAddress;
import java.nio.channels.ConnectionPendingException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The deadline of a channel's handshake: a client's connect promise and its timeout (the promise is
 * fulfilled once the data path is up, not when TCP connects), or the time an accepted channel's peer
 * has to finish its hello. Used on the event loop only.
 */
public final class UcxConnectAttempt {
    private ChannelPromise promise;
    private Future<?> timeout;
    private InetSocketAddress target;
    /** The client's attempt failed for its timeout. */
    private boolean timedOut;

    /** A client's connect is in flight. */
    public boolean isPending() {
        return promise != null;
    }

    /** The address the client asked to connect to. */
    public InetSocketAddress target() {
        return target;
    }

    /**
     * Starts a client's attempt to reach {@code target}: after {@code timeoutMillis} (none when not
     * positive) the promise fails with a {@link ConnectTimeoutException}, its message ending with what
     * {@code stage} says of where the attempt stood, and {@code close} runs; so it does when the user cancels the
     * promise.
     */
    void start(ChannelPromise connectPromise, InetSocketAddress target, EventLoop loop, int timeoutMillis,
               Supplier<String> stage, Runnable close) {
        if (promise != null) {
            throw new ConnectionPendingException();
        }
        promise = connectPromise;
        this.target = target;
        timedOut = false;
        if (timeoutMillis > 0) {
            timeout = loop.schedule(() -> {
                ChannelPromise pending = promise;
                if (pending == null || pending.isDone()) {
                    return;
                }
                // Before the failure: its listeners may close the channel (Bootstrap's do), which asks why.
                timedOut = true;
                if (pending.tryFailure(new ConnectTimeoutException(
                        "connection timed out after " + timeoutMillis + " ms: " + target + stage.get()))) {
                    close.run();
                } else {
                    timedOut = false;
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }
        connectPromise.addListener((ChannelFutureListener) f -> {
            if (f.isCancelled()) {
                take();
                close.run();
            }
        });
    }

    /** An accepted channel's peer must finish its handshake before {@code deadline} runs: it is cancelled then. */
    void acceptedDeadline(Future<?> deadline) {
        timeout = deadline;
    }

    /** True when the client's connect failed because it timed out. */
    boolean timedOut() {
        return timedOut;
    }

    /** Ends the attempt: cancels its timeout and returns the client's promise, if one is pending. */
    public ChannelPromise take() {
        ChannelPromise pending = promise;
        promise = null;
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
        return pending;
    }
}
