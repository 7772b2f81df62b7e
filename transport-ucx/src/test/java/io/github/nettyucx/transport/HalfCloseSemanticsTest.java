/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Half-closure: after {@code shutdownOutput()} the channel still reads, the peer sees its input shut down
 * after all data, and a write after the shutdown fails.
 */
class HalfCloseSemanticsTest extends AbstractSemanticsTest {
    // ---------------------------------------------------------------------------------------------------------
    // Half-closure

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void halfClose(TestTransport transport) throws Throwable {
        byte[] request = "request: please answer after my output is shut down".getBytes(StandardCharsets.US_ASCII);
        byte[] response = new DataStream(7).next(100_000);
        try (Env env = new Env(transport, 1, 1)) {
            ByteBuf serverReceived = Unpooled.buffer();
            AtomicReference<String> serverStateAtShutdown = new AtomicReference<>();
            AtomicReference<byte[]> serverBytesAtShutdown = new AtomicReference<>();
            Promise<Void> serverWrote = ImmediateEventExecutor.INSTANCE.newPromise();
            Promise<Void> mayAnswer = ImmediateEventExecutor.INSTANCE.newPromise();
            CountDownLatch serverInactive = new CountDownLatch(1);
            Channel server = env.serverBootstrap()
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf buf = (ByteBuf) msg;
                            serverReceived.writeBytes(buf);
                            buf.release();
                        }

                        @Override
                        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                            if (evt == ChannelInputShutdownEvent.INSTANCE) {
                                SocketChannel ch = (SocketChannel) ctx.channel();
                                serverStateAtShutdown.set("open=" + ch.isOpen() + " active=" + ch.isActive()
                                        + " inputShutdown=" + ch.isInputShutdown()
                                        + " outputShutdown=" + ch.isOutputShutdown());
                                serverBytesAtShutdown.set(ByteBufUtil.getBytes(serverReceived));
                                // Still allowed to write: answer, then close fully; only once the test has
                                // looked at the client's half-closed state, which the answer would end.
                                mayAnswer.addListener(ignored -> ctx.executor().execute(() ->
                                        ctx.writeAndFlush(Unpooled.wrappedBuffer(response)).addListener(f -> {
                                            if (f.isSuccess()) {
                                                serverWrote.trySuccess(null);
                                            } else {
                                                serverWrote.tryFailure(f.cause());
                                            }
                                            ctx.close();
                                        })));
                            }
                            ReferenceCountUtil.release(evt);
                        }

                        @Override
                        public void channelInactive(ChannelHandlerContext ctx) {
                            serverInactive.countDown();
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            serverWrote.tryFailure(cause);
                            ctx.close();
                        }
                    }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();

            ByteBuf clientReceived = Unpooled.buffer();
            AtomicReference<byte[]> clientBytesAtInputShutdown = new AtomicReference<>();
            CountDownLatch clientInputShutdown = new CountDownLatch(1);
            CountDownLatch clientInputShutdownReadComplete = new CountDownLatch(1);
            CountDownLatch clientInactive = new CountDownLatch(1);
            Queue<Throwable> clientErrors = new ConcurrentLinkedQueue<>();
            SocketChannel client = (SocketChannel) env.clientBootstrap()
                    .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf buf = (ByteBuf) msg;
                            clientReceived.writeBytes(buf);
                            buf.release();
                        }

                        @Override
                        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                            if (evt == ChannelInputShutdownEvent.INSTANCE) {
                                clientBytesAtInputShutdown.set(ByteBufUtil.getBytes(clientReceived));
                                clientInputShutdown.countDown();
                            } else if (evt == ChannelInputShutdownReadComplete.INSTANCE) {
                                clientInputShutdownReadComplete.countDown();
                            }
                            ReferenceCountUtil.release(evt);
                        }

                        @Override
                        public void channelInactive(ChannelHandlerContext ctx) {
                            clientInactive.countDown();
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            clientErrors.add(cause);
                        }
                    }).connect(server.localAddress()).sync().channel();

            client.writeAndFlush(Unpooled.wrappedBuffer(request)).sync();
            client.shutdownOutput().sync();
            assertTrue(client.isOutputShutdown(), "client output shut down");
            assertFalse(client.isInputShutdown(), "client input must still be open");
            assertTrue(client.isActive(), "client must stay active after shutdownOutput");

            // Writing after shutdownOutput fails, and the message is released.
            ByteBuf late = Unpooled.directBuffer().writeBytes(new byte[] {1, 2, 3});
            ChannelFuture lateWrite = client.writeAndFlush(late);
            assertTrue(lateWrite.await(5, TimeUnit.SECONDS));
            assertFalse(lateWrite.isSuccess(), "write after shutdownOutput must fail");
            assertInstanceOf(ClosedChannelException.class, lateWrite.cause());
            assertEquals(0, late.refCnt(), "failed write must release the message");

            mayAnswer.setSuccess(null);
            await(serverWrote, 10, "server to answer after its input was shut down");
            assertEquals("open=true active=true inputShutdown=true outputShutdown=false",
                    serverStateAtShutdown.get(), "server state when ChannelInputShutdownEvent fired");
            assertArrayEquals(request, serverBytesAtShutdown.get(), "server got all data before the shutdown event");

            assertTrue(clientInputShutdown.await(10, TimeUnit.SECONDS), "client never saw its input shut down");
            assertTrue(clientInputShutdownReadComplete.await(10, TimeUnit.SECONDS),
                    "client never got ChannelInputShutdownReadComplete");
            assertArrayEquals(response, clientBytesAtInputShutdown.get(),
                    "client got the whole answer before its input shutdown");
            assertTrue(serverInactive.await(10, TimeUnit.SECONDS), "server child did not become inactive");
            assertTrue(client.isInputShutdown());

            // Then the full close.
            client.close().sync();
            assertTrue(clientInactive.await(5, TimeUnit.SECONDS));
            assertFalse(client.isOpen());
            assertTrue(clientErrors.isEmpty(), () -> "client errors: " + clientErrors);
            server.close().sync();
            serverReceived.release();
            clientReceived.release();
        }
    }
}
