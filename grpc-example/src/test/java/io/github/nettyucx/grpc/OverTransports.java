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
 * <p>The values are {@link NettyTransport} constant names (JUnit converts them). UCX runs last: after NIO and
 * epoll had warmed the JVM, {@code ShutdownAndReconnectTest.gracefulShutdownFinishesCallsInFlightAndRefusesNewOnes}
 * used to lose the server's last answers on UCX (a write after the server's close record closed the channel
 * before those answers were read), so this order keeps that case covered.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@ValueSource(strings = {"NIO", "EPOLL", "UCX"})
@interface OverTransports {
}
