/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import java.io.IOException;

/**
 * What carries a connection's ends (output shut down, closed) to the peer: records on the side channel's socket
 * ({@link UcxSideChannel}), whose received records land in its input buffer, where {@link UcxSession} parses them;
 * or, on plain TCP ({@code UcxPlainDataPath}), what the socket itself does instead.
 */
public interface UcxRecordLink {
    /**
     * Tells the peer that this side shut its output down after {@code messagesSent} messages. Returns false when
     * part of it waits for the socket to take it (the channel then watches for writability).
     */
    boolean sendShutdownOutput(int messagesSent) throws IOException;

    /**
     * Tells the peer that this side closed after {@code messagesSent} messages, with a reset when {@code reset}
     * ({@code SO_LINGER} 0). Best effort: the socket closes next.
     */
    void sendClose(int messagesSent, boolean reset) throws IOException;

    /** Moves what arrived into the side channel's input; returns false once the peer's end is reached. */
    boolean receiveRecords() throws IOException;
}
