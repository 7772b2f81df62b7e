/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

/** The frame types of {@link NettyAppFramework}'s protocol: the first byte of each length-prefixed frame. */
final class NettyAppFrames {
    /** Answered with the same frame. */
    static final byte ECHO = 'E';
    /** A chunk of a bulk transfer, added to the server's CRC. */
    static final byte UPLOAD = 'U';
    /**
     * The end of a bulk transfer: the client's CRC and byte count (two longs); answered with this type and one byte,
     * 1 when they match the server's (which then starts over), 0 when not.
     */
    static final byte FINISH = 'F';

    private NettyAppFrames() {
    }
}
