/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.ByteSizes;

import java.util.ArrayList;
import java.util.List;

/**
 * One measurement: unary round trips with a payload size and a number of calls kept in flight by async
 * stubs ({@code unary:SIZE:CONCURRENCY}), unary round trips from application threads each waiting on a
 * blocking stub ({@code blocking:SIZE:THREADS}), or a server stream of messages of one size
 * ({@code stream:SIZE}).
 */
final class Scenario {
    enum Kind {
        UNARY("unary"), BLOCKING("blocking"), STREAM("stream");

        final String id;

        Kind(String id) {
            this.id = id;
        }
    }

    final Kind kind;
    final int size;
    /** Calls kept in flight on the one channel (unary), application threads (blocking); 1 for streams. */
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
            if (parts[0].equals(Kind.UNARY.id) && parts.length == 3) {
                return new Scenario(Kind.UNARY, Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
            }
            if (parts[0].equals(Kind.BLOCKING.id) && parts.length == 3) {
                return new Scenario(Kind.BLOCKING, Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
            }
            if (parts[0].equals(Kind.STREAM.id) && parts.length == 2) {
                return new Scenario(Kind.STREAM, Integer.parseInt(parts[1]), 1);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("bad scenario '" + text
                + "': use unary:SIZE:CONCURRENCY, blocking:SIZE:THREADS or stream:SIZE");
    }

    /** A comma-separated list; an empty text is an empty list. */
    static List<Scenario> parseList(String text) {
        List<Scenario> list = new ArrayList<>();
        for (String s : text.split(",")) {
            if (!s.isBlank()) {
                list.add(parse(s.trim()));
            }
        }
        return list;
    }

    /** The {@code benchmark} column of the scenario's results. */
    String benchmark() {
        return kind.id;
    }

    /** Whether the scenario's operations are calls (with round trips), not streamed messages. */
    boolean measuresCalls() {
        return kind != Kind.STREAM;
    }

    @Override
    public String toString() {
        return kind == Kind.STREAM ? kind.id + ":" + size : kind.id + ":" + size + ":" + concurrency;
    }

    String label() {
        return label(kind.id, size, concurrency);
    }

    /** "unary 1 KiB x64", "blocking 1 KiB, 8 threads", "stream 64 KiB": for progress lines and reports. */
    static String label(String benchmark, long size, int concurrency) {
        if (benchmark.equals(Kind.UNARY.id)) {
            return "unary " + ByteSizes.label(size) + " x" + concurrency;
        }
        if (benchmark.equals(Kind.BLOCKING.id)) {
            return "blocking " + ByteSizes.label(size) + ", " + concurrency
                    + (concurrency == 1 ? " thread" : " threads");
        }
        return benchmark + " " + ByteSizes.label(size);
    }
}
