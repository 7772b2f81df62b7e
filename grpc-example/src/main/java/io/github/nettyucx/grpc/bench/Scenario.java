/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import io.github.nettyucx.support.ByteSizes;

import java.util.ArrayList;
import java.util.List;

/**
 * One measurement: unary round trips with a payload size and a number of calls kept in flight, or a
 * server stream of messages of one size. Written {@code unary:SIZE:CONCURRENCY} or {@code stream:SIZE}.
 */
final class Scenario {
    enum Kind { UNARY, STREAM }

    final Kind kind;
    final int size;
    /** Calls kept in flight on the one channel; 1 for streams. */
    final int concurrency;

    Scenario(Kind kind, int size, int concurrency) {
        if (size < 0 || concurrency < 1) {
            throw new IllegalArgumentException("size must be >= 0 and concurrency >= 1: " + size + ", " + concurrency);
        }
        this.kind = kind;
        this.size = size;
        this.concurrency = concurrency;
    }

    static Scenario parse(String text) {
        String[] parts = text.split(":");
        try {
            if (parts[0].equals("unary") && parts.length == 3) {
                return new Scenario(Kind.UNARY, Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
            }
            if (parts[0].equals("stream") && parts.length == 2) {
                return new Scenario(Kind.STREAM, Integer.parseInt(parts[1]), 1);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("bad scenario '" + text + "': use unary:SIZE:CONCURRENCY or stream:SIZE");
    }

    static List<Scenario> parseList(String text) {
        List<Scenario> list = new ArrayList<>();
        for (String s : text.split(",")) {
            if (!s.isBlank()) {
                list.add(parse(s.trim()));
            }
        }
        return list;
    }

    String benchmark() {
        return kind == Kind.UNARY ? "unary" : "stream";
    }

    @Override
    public String toString() {
        return kind == Kind.UNARY ? "unary:" + size + ":" + concurrency : "stream:" + size;
    }

    String label() {
        return kind == Kind.UNARY ? "unary " + ByteSizes.label(size) + " x" + concurrency
                : "stream " + ByteSizes.label(size);
    }
}
