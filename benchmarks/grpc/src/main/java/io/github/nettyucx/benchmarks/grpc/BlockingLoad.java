/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.grpc.Payloads;
import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.grpc.Channel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Unary echo calls the way most applications make them: {@code threads} application threads, each with a
 * blocking stub on the shared channel, each waiting for its answer before the next call. grpc-java runs a
 * blocking call's callbacks on the calling thread itself, so every call wakes a parked application thread.
 */
final class BlockingLoad extends Load {
    private final Channel channel;
    private final EchoRequest request;
    private final List<Thread> threads = new ArrayList<>();

    BlockingLoad(Channel channel, int size, int threads) {
        this.channel = channel;
        this.request = EchoRequest.newBuilder().setPayload(Payloads.of(size)).build();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::callLoop, "blocking-caller-" + i);
            // A call that never answers must not keep the client JVM from reporting and exiting.
            t.setDaemon(true);
            this.threads.add(t);
        }
    }

    @Override
    protected void begin() {
        threads.forEach(Thread::start);
    }

    private void callLoop() {
        EchoGrpc.EchoBlockingStub stub = EchoGrpc.newBlockingStub(channel);
        int size = request.getPayload().size();
        try {
            while (!stopping()) {
                long started = System.nanoTime();
                EchoResponse answer = stub.unary(request);
                callCompleted(System.nanoTime() - started);
                if (answer.getPayload().size() != size) {
                    throw new IllegalStateException("answer of " + answer.getPayload().size()
                            + " bytes to a request of " + size);
                }
            }
        } catch (Throwable t) {
            failed(t);
        }
    }

    @Override
    protected boolean awaitEnd(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(t, left);
            }
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }
}
