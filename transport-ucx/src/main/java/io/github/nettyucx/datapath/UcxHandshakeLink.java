/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.UcxRecordLink;
import io.github.nettyucx.handshake.UcxSideChannel;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;

/**
 * A connection's link while the peers set it up: the records travel on the side channel, writes wait for the data
 * path, and there is nothing to read until the native connection exists (a client creates it once the server
 * answered as a netty-ucx server, a server for the client's hello); from then on its messages may arrive before
 * the peer's hello is processed.
 */
public final class UcxHandshakeLink implements UcxLink {
    /** The input before any connection: nothing arrives, nothing ends. */
    private static final UcxInput NOTHING = new UcxInput() {
        @Override
        public boolean hasReadable() {
            return false;
        }

        @Override
        public boolean atEnd() {
            return false;
        }

        @Override
        public ByteBuf readInPlace(int maxBytes) {
            return null;
        }

        @Override
        public int read(ByteBuf dst) {
            return 0;
        }

        @Override
        public java.io.IOException endFailure() {
            return null;
        }

        @Override
        public void discardReadable() {
        }

        @Override
        public void readsWanted(boolean wanted) {
        }
    };

    private final UcxSideChannel side;
    private final UcxConnection connection;
    private final UcxInput input;

    /** Before the native connection exists. */
    public UcxHandshakeLink(UcxSideChannel side) {
        this(side, null, NOTHING);
    }

    /** Once the native connection exists, with its messages as {@code input}. */
    public UcxHandshakeLink(UcxSideChannel side, UcxConnection connection, UcxInput input) {
        this.side = side;
        this.connection = connection;
        this.input = input;
    }

    /** Writes wait for the data path: nothing is sent, nothing is removed. */
    @Override
    public boolean write(ChannelOutboundBuffer in) {
        return in.isEmpty();
    }

    @Override
    public boolean canSend() {
        return false;
    }

    @Override
    public UcxInput input() {
        return input;
    }

    @Override
    public UcxRecordLink records() {
        return side;
    }

    @Override
    public UcxConnection connection() {
        return connection;
    }

    @Override
    public DataPath kind() {
        return null;
    }

    @Override
    public String toString() {
        return "handshake";
    }
}
