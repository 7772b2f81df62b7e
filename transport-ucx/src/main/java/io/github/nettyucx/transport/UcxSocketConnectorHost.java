/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.netty.util.concurrent.Future;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * A {@link UcxSocketChannel} as its {@link UcxConnector} sees it: the side channel, the native connection and the
 * loop.
 */
final class UcxSocketConnectorHost implements UcxConnector.Host {
    private final UcxSocketChannel channel;

    UcxSocketConnectorHost(UcxSocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public void send(ByteBuffer bytes) throws IOException {
        channel.side.queue(bytes);
    }

    @Override
    public void flush() throws IOException {
        channel.flushSideChannel();
    }

    @Override
    public void expectAddress() {
        channel.side.makeRoomForAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return channel.remote;
    }

    @Override
    public int peerUid() {
        return channel.fd.isOpen() ? UcxNative.socketPeerUid(channel.fd.get()) : -1;
    }

    @Override
    public void keepAlive() {
        UcxNative.socketKeepAlive(channel.fd.get(), 10, 2, 3);
    }

    @Override
    public UcxConnector.Endpoint newEndpoint() throws IOException {
        UcxLoopSeat registration = channel.registration();
        UcxSocketChannelConfig config = channel.config();
        UcxConnection connection = UcxConnection.create(registration.worker(), registration.bindConnection(),
                config.recvWindow(), config.recvUnit(), config.sendSlots());
        channel.link = new UcxHandshakeLink(channel.side, connection, new UcxConnectionInput(connection,
                channel.session));
        return connection;
    }

    @Override
    public byte[] workerAddress() throws IOException {
        return channel.registration().worker().workerAddress();
    }

    @Override
    public UcxWorkerKey ownerKey() {
        return channel.registration().worker().ownerKey();
    }

    @Override
    public void connectDataPath(UcxDataPathPolicy.Choice choice, UcxHandshake.Hello hello) throws IOException {
        channel.connectDataPath(choice, hello);
    }

    @Override
    public void startPlain() throws IOException {
        channel.startPlain(UcxTransportMetrics.DataPath.PLAIN_TCP);
    }

    @Override
    public Future<?> schedule(Runnable task, long millis) {
        return channel.eventLoop().schedule(task, millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public boolean isActive() {
        return channel.active;
    }

    @Override
    public void abort(IOException cause) {
        channel.peerVanished(cause);
    }

    @Override
    public void close() {
        channel.unsafe().close(channel.unsafe().voidPromise());
    }

    @Override
    public void fallBack(String why) {
        channel.clientConnect.fallBackToPlain(why);
    }

    @Override
    public void clientSilent() {
        channel.clientStayedSilent();
    }

    @Override
    public String toString() {
        return channel.toString();
    }
}
