/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a test body once per transport: UCX, the transport under test, and epoll and NIO, the reference.
 * A body that fails on epoll or NIO is a wrong test, not a transport bug. The body calls
 * {@link TestTransports#assumeAvailable} first.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@EnumSource(value = NettyTransport.class, names = {"UCX", "EPOLL", "NIO"})
@interface OverTransports {
}
