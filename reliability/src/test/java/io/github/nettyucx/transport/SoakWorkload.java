/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

/**
 * Something the soak runs for its whole duration, in threads or event loops of its own: checked echo
 * ({@link EchoSoakWorkload}), gRPC streaming ({@link GrpcStreamSoakWorkload}) and YCSB over the key-value store
 * ({@link YcsbSoakWorkload}), all over UCX.
 */
interface SoakWorkload extends AutoCloseable {
    String name();

    /** Starts the load and returns; it runs until {@link #close()}. */
    void start() throws Exception;

    /** Operations completed so far (requests answered, messages checked...). */
    long operations();

    /** Errors so far; the soak fails if there is any. */
    long errors();

    /** A description of the first error, or null. */
    String firstError();
}
