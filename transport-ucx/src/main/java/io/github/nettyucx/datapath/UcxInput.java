/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.netty.buffer.ByteBuf;

import java.io.IOException;

/**
 * Where a stream channel's read loop ({@code UcxSocketChannel.readInput}) takes the peer's
 * bytes from: the messages of a {@link UcxConnection} (UCX or the TCP data path), or a plain TCP socket
 * ({@link UcxPlainDataPath}). Used on the event loop only.
 */
public interface UcxInput {
    /** True when bytes may be there to read now. */
    boolean hasReadable();

    /** True once everything the peer sent before its end of stream has been read. */
    boolean atEnd();

    /**
     * The next bytes in the buffer they arrived in, when there is such a buffer of at most {@code maxBytes}
     * readable bytes; null otherwise (then use {@link #read}).
     */
    ByteBuf readInPlace(int maxBytes);

    /**
     * Reads into {@code dst}, up to its writable bytes; returns the bytes read, 0 when none are there now, -1 when
     * this read reached the peer's end of stream.
     */
    int read(ByteBuf dst) throws IOException;

    /** Why the input ended, when it ended with an error (a plain TCP peer's reset); null otherwise. */
    IOException endFailure();

    /** Drops what has arrived (the input is shut down). */
    void discardReadable() throws IOException;

    /** Whether the channel wants to read now (auto-read, or a pending read): a socket need not be watched else. */
    void readsWanted(boolean wanted);
}
