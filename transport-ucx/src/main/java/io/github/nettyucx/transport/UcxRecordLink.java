/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.io.IOException;

/**
 * What carries a connection's side-channel records (output shut down, closed) between the peers: the
 * side channel's socket itself ({@link UcxSideChannel}), or a data path that took the socket over and
 * frames the records between its messages ({@link UcxStreamDataPath}). Received records land in the
 * side channel's input buffer, where {@link UcxSession} parses them.
 */
interface UcxRecordLink {
    /**
     * Sends a record of {@code type} saying that {@code messagesSent} messages precede it. Returns false
     * when part of it waits for the socket to take it (the channel then watches for writability).
     */
    boolean sendRecord(byte type, int messagesSent) throws IOException;

    /** Moves what arrived into the side channel's input; returns false once the peer's end is reached. */
    boolean receiveRecords() throws IOException;
}
