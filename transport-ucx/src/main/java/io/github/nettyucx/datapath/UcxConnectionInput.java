/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.github.nettyucx.handshake.UcxSession;
import io.netty.buffer.ByteBuf;

import java.io.IOException;

/**
 * The messages of a {@link UcxConnection} as the read loop's input, whose end the peer's records in the
 * {@link UcxSession} mark.
 */
public final class UcxConnectionInput implements UcxInput {
    private final UcxConnection connection;
    private final UcxSession session;

    public UcxConnectionInput(UcxConnection connection, UcxSession session) {
        this.connection = connection;
        this.session = session;
    }

    @Override
    public boolean hasReadable() {
        return connection.hasReadable();
    }

    @Override
    public boolean atEnd() {
        return session.atEndOfInput(connection.messagesReceived());
    }

    @Override
    public ByteBuf readInPlace(int maxBytes) {
        return connection.readInPlace(maxBytes);
    }

    @Override
    public int read(ByteBuf dst) throws IOException {
        return connection.read(dst);
    }

    @Override
    public IOException endFailure() {
        // A UCX peer's reset arrives as a record: session.peerReset().
        return null;
    }

    @Override
    public void discardReadable() throws IOException {
        connection.discardReadable();
    }

    @Override
    public void readsWanted(boolean wanted) {
        // Messages arrive into the receive slots whether the channel reads or not.
    }
}
