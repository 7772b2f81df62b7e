/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import io.github.nettyucx.kvstore.protocol.Frame;
import io.github.nettyucx.kvstore.protocol.OpCode;
import io.github.nettyucx.kvstore.protocol.ProtocolException;
import io.github.nettyucx.kvstore.protocol.Request;
import io.github.nettyucx.kvstore.protocol.Status;
import io.github.nettyucx.kvstore.protocol.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A request from the moment a caller makes it until its response, error or timeout. It is written
 * to the channel as is; {@link ClientHandler} gives it an id and encodes it on the event loop. As a
 * write listener it fails itself if the write does not happen.
 */
final class PendingRequest<T> implements ChannelFutureListener {
    final OpCode op;
    final String key;
    final Collection<String> fields;
    final Map<String, byte[]> values;
    final int count;
    final InetSocketAddress server;
    final long deadlineNanos;
    final CompletableFuture<T> future = new CompletableFuture<>();
    private final ResponseParser<T> parser;

    PendingRequest(OpCode op, String key, Collection<String> fields, Map<String, byte[]> values, int count,
                   InetSocketAddress server, long timeoutNanos, ResponseParser<T> parser) {
        this.op = op;
        this.key = key;
        this.fields = fields;
        this.values = values;
        this.count = count;
        this.server = server;
        this.deadlineNanos = System.nanoTime() + timeoutNanos;
        this.parser = parser;
    }

    /** Encodes the whole frame with this id into {@code out}. */
    void encode(ByteBuf out, long id) {
        Request.encode(out, id, op, key, fields, values, count);
    }

    /** A close guess of the encoded size, so the buffer rarely grows. */
    int sizeHint() {
        int n = Frame.LENGTH_BYTES + Frame.HEADER_BYTES + 16;
        if (key != null) {
            n += 2 + key.length();
        }
        if (values != null) {
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                n += 6 + e.getKey().length() + e.getValue().length;
            }
        }
        if (fields != null) {
            for (String f : fields) {
                n += 2 + f.length();
            }
        }
        return n;
    }

    /** Completes from a response frame; does not release it. */
    void complete(Frame response) {
        Status status = Status.of(response.code());
        ByteBuf payload = response.payload().duplicate();
        try {
            if (status == null) {
                fail(new KvException("server " + server + " answered " + op + " with unknown status "
                        + response.code()));
            } else if (status.isError()) {
                fail(new KvServerException(status, Wire.readString(payload)));
            } else {
                future.complete(parser.parse(status, payload));
            }
        } catch (ProtocolException e) {
            fail(new KvException("malformed " + op + " response from " + server + ": " + e.getMessage()));
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    void fail(Throwable cause) {
        future.completeExceptionally(cause);
    }

    boolean isDone() {
        return future.isDone();
    }

    @Override
    public void operationComplete(ChannelFuture f) {
        if (!f.isSuccess()) {
            fail(new KvUnavailableException("could not send " + op + " to " + server + ": " + f.cause(), f.cause()));
        }
    }
}
