/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/** Test bodies: bytes that depend on a seed, sent in pieces, and the SHA-256 of what arrives. */
final class Bodies {
    static final int LARGE = 16 << 20;
    private static final int PIECE = 64 << 10;

    private Bodies() {
    }

    /** {@code size} bytes from {@code seed}: the same on both ends, different for another seed. */
    static byte[] bytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    /** {@code bytes} as a stream of buffers, so that a large body is written in many pieces. */
    static Flux<ByteBuf> pieces(byte[] bytes) {
        return Flux.range(0, (bytes.length + PIECE - 1) / PIECE).map(i -> Unpooled.wrappedBuffer(bytes, i * PIECE,
                Math.min(PIECE, bytes.length - i * PIECE)));
    }

    /**
     * The hex SHA-256 of the bytes {@code body} delivers, read as they come. Each buffer is copied out at once: Reactor
     * Netty releases it after handing it on, and again if an operator discards it.
     */
    static Mono<String> sha256(Flux<ByteBuf> body) {
        return Mono.fromCallable(Bodies::newDigest)
                .flatMap(digest -> body.map(ByteBufUtil::getBytes).doOnNext(digest::update)
                        .then(Mono.fromCallable(() -> HexFormat.of().formatHex(digest.digest()))));
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(newDigest().digest(bytes));
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
