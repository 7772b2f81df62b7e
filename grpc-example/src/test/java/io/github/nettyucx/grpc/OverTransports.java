/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a test body once per transport: UCX, the transport under test, and epoll and NIO, the reference.
 * A body that fails on epoll or NIO is a wrong test, not a transport bug. The body calls
 * {@link TestTransports#assumeAvailable} first.
 *
 * <p>The values are {@link NettyTransport} constant names (JUnit converts them), listed instead of taken from
 * the enum to keep the order these tests always ran in, UCX first: with UCX after NIO and epoll,
 * {@code ShutdownAndReconnectTest.gracefulShutdownFinishesCallsInFlightAndRefusesNewOnes} fails now and then on
 * UCX (a held call ends with "Connection closed after GOAWAY"), with the old transport enum too.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@ValueSource(strings = {"UCX", "EPOLL", "NIO"})
@interface OverTransports {
}
