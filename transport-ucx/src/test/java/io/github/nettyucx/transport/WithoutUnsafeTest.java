/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.github.nettyucx.transport.testsuite.RequireUcx;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.internal.PlatformDependent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The transport where Netty has no {@code sun.misc.Unsafe}, as from Java 25 by default: the {@code no-unsafe}
 * execution of this module's tests runs it (and Netty's conformance suite, the buffer tests and the data-path
 * tests) with {@code -Dio.netty.noUnsafe=true}, on any JDK. Netty's direct buffers then have no memory address on
 * JDK 17, which is harder than JDK 25's, where they have one. Skipped in the other executions, which have Unsafe.
 */
@RequireUcx
class WithoutUnsafeTest {
    private static EventLoopGroup ucx;
    private static EventLoopGroup nio;

    @BeforeAll
    static void start() {
        assumeTrue(Boolean.getBoolean("io.netty.noUnsafe"), "runs in the no-unsafe execution only");
        TestTransport.requireUcx();
        ucx = new UcxEventLoopGroup(2);
        nio = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stop() {
        if (ucx != null) {
            ucx.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
            nio.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ucx", "pooled-direct", "unpooled-heap"})
    void echoesOverUcxMessagesWithoutUnsafe(String allocator) throws Exception {
        assertFalse(PlatformDependent.hasUnsafe(), "Netty still uses Unsafe: the execution's property did not apply");
        assertTrue(Ucx.isAvailable(), () -> "UCX is unavailable: " + Ucx.unavailabilityCause());
        long endpoints = Ucx.endpointsCreated();
        echo(new Bootstrap().group(ucx).channel(UcxSocketChannel.class), allocator);
        assertTrue(Ucx.endpointsCreated() > endpoints, "the echo did not go over a UCX endpoint");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ucx", "pooled-direct", "unpooled-heap"})
    void servesPlainTcpClientsWithoutUnsafe(String allocator) throws Exception {
        assertFalse(PlatformDependent.hasUnsafe(), "Netty still uses Unsafe: the execution's property did not apply");
        echo(new Bootstrap().group(nio).channel(NioSocketChannel.class), allocator);
    }

    /** 1 MiB from {@code client} to an echo server on UCX and back, through buffers of {@code allocator}. */
    private static void echo(Bootstrap client, String allocator) throws Exception {
        ByteBufAllocator alloc = allocator(allocator);
        EchoChecker.echoThrough(new ServerBootstrap().group(ucx).channel(UcxServerSocketChannel.class)
                .childOption(ChannelOption.ALLOCATOR, alloc), client.option(ChannelOption.ALLOCATOR, alloc), 1 << 20);
    }

    private static ByteBufAllocator allocator(String name) {
        switch (name) {
            case "ucx":
                return UcxByteBufAllocator.DEFAULT;
            case "pooled-direct":
                return new PooledByteBufAllocator(true);
            case "unpooled-heap":
                return new UnpooledByteBufAllocator(false);
            default:
                throw new IllegalArgumentException(name);
        }
    }
}
