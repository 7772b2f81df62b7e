/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.support.NettyTransport;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * gRPC puts its own allocator on the channels it creates: the transport must work with it, and with the
 * channel's own allocator when the application hands that back ({@link AllocatorChoice}).
 */
@ExtendWith(LeakCheck.class)
class AllocatorTest {

    @OverTransports
    void grpcInstallsItsOwnPooledAllocatorAndCallsWork(NettyTransport transport) throws Exception {
        List<Channel> created = new CopyOnWriteArrayList<>();
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService())
                .channel(b -> b.channelFactory(() -> record(transport, created))).start()) {
            echoSomeSizes(h);
            ByteBufAllocator used = created.get(0).config().getAllocator();
            assertInstanceOf(PooledByteBufAllocator.class, used);
            assertNotSame(ByteBufAllocator.DEFAULT, used, "gRPC's allocator is its own pool, not Netty's default");
            assertNotSame(AllocatorChoice.channelDefaultAllocator(transport), used);
        }
    }

    @OverTransports
    void channelChoiceKeepsTheTransportsDefaultAllocator(NettyTransport transport) throws Exception {
        List<Channel> created = new CopyOnWriteArrayList<>();
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService()).allocator(AllocatorChoice.CHANNEL)
                .channel(b -> b.channelFactory(() -> record(transport, created))).start()) {
            echoSomeSizes(h);
            assertSame(AllocatorChoice.channelDefaultAllocator(transport), created.get(0).config().getAllocator());
        }
    }

    /** The server's accepted channels really allocate from the allocator given to them through the option. */
    @OverTransports
    void acceptedChannelsAllocateFromTheAllocatorOption(NettyTransport transport) throws Exception {
        CountingAllocator counting = new CountingAllocator();
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService())
                .server(b -> b.withChildOption(ChannelOption.ALLOCATOR, counting)).start()) {
            echoSomeSizes(h);
            assertTrue(counting.allocations.get() > 0,
                    "the server's channels never used the allocator they were given");
        }
    }

    private static Channel record(NettyTransport transport, List<Channel> created) {
        try {
            Channel c = transport.socketChannel().getConstructor().newInstance();
            created.add(c);
            return c;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void echoSomeSizes(GrpcHarness h) {
        EchoGrpc.EchoBlockingStub echo = EchoGrpc.newBlockingStub(h.channel()).withDeadlineAfter(30, TimeUnit.SECONDS);
        for (int size : new int[] {10, 5000, 200_000}) {
            assertEquals(Payloads.of(size), echo.unary(EchoRequest.newBuilder().setPayload(Payloads.of(size)).build())
                    .getPayload());
        }
    }

    /** Netty's pooled allocator, counting the buffers it hands out. */
    private static final class CountingAllocator extends AbstractByteBufAllocator {
        final AtomicLong allocations = new AtomicLong();
        private final PooledByteBufAllocator pool = new PooledByteBufAllocator(true);

        CountingAllocator() {
            super(true);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            allocations.incrementAndGet();
            return pool.heapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            allocations.incrementAndGet();
            return pool.directBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return true;
        }
    }
}
