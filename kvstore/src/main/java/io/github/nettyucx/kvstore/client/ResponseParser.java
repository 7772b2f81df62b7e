/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import io.github.nettyucx.kvstore.protocol.ProtocolException;
import io.github.nettyucx.kvstore.protocol.Status;
import io.netty.buffer.ByteBuf;

/** Turns the payload of an OK or NOT_FOUND response into the result of one operation. */
@FunctionalInterface
interface ResponseParser<T> {
    T parse(Status status, ByteBuf payload) throws ProtocolException;
}
