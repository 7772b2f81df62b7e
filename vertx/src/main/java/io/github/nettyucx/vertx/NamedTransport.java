/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.vertx.core.transport.Transport;

/**
 * The face of a transport that {@code Vertx.builder().withTransport(...)} takes: a name, whether it can run here
 * and why not, and the implementation Vert.x then asks for event loops and channels. Vert.x's own
 * {@code TransportInternal} plays this part for its transports; it lives in an internal package, so the UCX
 * transport has its own.
 */
final class NamedTransport implements Transport {
    private final String name;
    private final io.vertx.core.spi.transport.Transport implementation;

    NamedTransport(String name, io.vertx.core.spi.transport.Transport implementation) {
        this.name = name;
        this.implementation = implementation;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean available() {
        return implementation.isAvailable();
    }

    @Override
    public Throwable unavailabilityCause() {
        return implementation.unavailabilityCause();
    }

    @Override
    public io.vertx.core.spi.transport.Transport implementation() {
        return implementation;
    }

    @Override
    public String toString() {
        return "Vert.x transport " + name;
    }
}
