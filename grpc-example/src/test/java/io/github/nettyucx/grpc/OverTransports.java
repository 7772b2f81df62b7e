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
 * <p>The values are {@link NettyTransport} constant names (JUnit converts them). The order does not matter;
 * UCX runs last, after NIO and epoll have warmed the JVM, where {@code ShutdownAndReconnectTest} used to lose
 * the server's last answers on UCX (docs/reliability.md, bug 11); {@code ShutdownRepeatTest} runs that case
 * again and again with UCX last, first and in the middle.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@ValueSource(strings = {"NIO", "EPOLL", "UCX"})
@interface OverTransports {
}
