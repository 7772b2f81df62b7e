/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import java.util.Locale;

/**
 * What one measurement window does: requests of {@code bytes} from {@code threads} application threads, each
 * waiting for its answer before the next (what a service calling another does); one thread reading a server
 * stream of {@code bytes}-byte messages; a ping-pong driven by the client's event loop; or a bulk transfer
 * written from an application thread. {@code idleConnections} more connections stay open, and idle, meanwhile.
 */
record Scenario(Kind kind, int bytes, int threads, int idleConnections) {
    enum Kind {
        /** Application threads each send a request and wait for its answer. */
        CALL,
        /** One thread reads a server stream. */
        STREAM,
        /** The client's event loop sends the next request as each answer arrives. */
        LOOP_PING_PONG,
        /** One application thread writes a bulk transfer, with a checksum checked by the server at the end. */
        UPLOAD,
        /** Nothing but the idle connections: what waiting costs. */
        IDLE
    }

    static Scenario calls(int bytes, int threads) {
        return new Scenario(Kind.CALL, bytes, threads, 0);
    }

    static Scenario stream(int bytes) {
        return new Scenario(Kind.STREAM, bytes, 1, 0);
    }

    static Scenario loopPingPong(int bytes, int idleConnections) {
        return new Scenario(Kind.LOOP_PING_PONG, bytes, 1, idleConnections);
    }

    static Scenario upload(int chunkBytes) {
        return new Scenario(Kind.UPLOAD, chunkBytes, 1, 0);
    }

    static Scenario idle(int idleConnections) {
        return new Scenario(Kind.IDLE, 0, 0, idleConnections);
    }

    /** Whether the window measures bytes per second (else calls, with their latency). */
    boolean measuresBytes() {
        return kind == Kind.STREAM || kind == Kind.UPLOAD;
    }

    /** The name results carry, e.g. {@code call-1KiB-x8}, {@code stream-64KiB}, {@code loop-16B-idle100}. */
    String name() {
        String size = bytes % 1024 == 0 ? (bytes / 1024) + "KiB" : bytes + "B";
        String idle = idleConnections > 0 ? "-idle" + idleConnections : "";
        switch (kind) {
            case CALL:
                return String.format(Locale.ROOT, "call-%s-x%d", size, threads) + idle;
            case STREAM:
                return "stream-" + size + idle;
            case LOOP_PING_PONG:
                return "loop-" + size + idle;
            case IDLE:
                return "idle" + idleConnections;
            default:
                return "upload-" + size + idle;
        }
    }
}
