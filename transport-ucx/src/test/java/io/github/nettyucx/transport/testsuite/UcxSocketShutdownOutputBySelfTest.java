/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.SocketChannel;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketShutdownOutputBySelfTest;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.netty.testsuite.transport.TestsuitePermutation.randomBufferType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Netty's {@link SocketShutdownOutputBySelfTest} on UCX client channels.
 *
 * <p>Upstream, every test method connects the client under test to a plain {@link java.net.ServerSocket} and
 * uses the accepted {@link java.net.Socket} as the peer; a UCX client cannot complete its connect against a
 * plain socket (there is no UCX handshake), and the plain socket is created inside the test bodies, so each
 * {@code @Test} method is overridden here with the same steps and assertions against a {@link PeerServer}: a
 * UCX server channel that lets the test read byte by byte (with -1 at end of stream) and write, like the
 * accepted socket did. {@code testWriteAfterShutdownOutputNoWritabilityChange} is {@code @Disabled} upstream
 * and stays so (it is not overridden).
 */
@RequireUcx
class UcxSocketShutdownOutputBySelfTest extends SocketShutdownOutputBySelfTest {

    @Override
    protected List<BootstrapFactory<Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().clientSocket();
    }

    @Test
    @Timeout(value = 30000, unit = TimeUnit.MILLISECONDS)
    @Override
    public void testShutdownOutput(TestInfo testInfo) throws Throwable {
        run(testInfo, this::shutdownOutputWithUcxPeer);
    }

    private void shutdownOutputWithUcxPeer(Bootstrap cb) throws Throwable {
        Handler h = new Handler();
        PeerServer ss = new PeerServer();
        SocketChannel ch = null;
        try {
            ch = (SocketChannel) cb.handler(h).connect(ss.address()).sync().channel();
            assertTrue(ch.isActive());
            assertFalse(ch.isOutputShutdown());

            Channel s = ss.accept();
            ch.writeAndFlush(randomBufferType(ch.alloc(), new byte[] {1}, 0, 1)).sync();
            assertEquals(1, ss.read());

            assertTrue(h.ch.isOpen());
            assertTrue(h.ch.isActive());
            assertFalse(h.ch.isInputShutdown());
            assertFalse(h.ch.isOutputShutdown());

            // Make the connection half-closed and ensure the peer reads end of stream.
            ch.shutdownOutput().sync();
            assertEquals(-1, ss.read());

            assertTrue(h.ch.isOpen());
            assertTrue(h.ch.isActive());
            assertFalse(h.ch.isInputShutdown());
            assertTrue(h.ch.isOutputShutdown());

            // If half-closed, the peer should be able to write something.
            s.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1})).sync();
            assertEquals(1, (int) h.queue.take());
        } finally {
            if (ch != null) {
                ch.close();
            }
            ss.close();
        }
    }

    @Test
    @Timeout(value = 30000, unit = TimeUnit.MILLISECONDS)
    @Override
    public void testShutdownOutputAfterClosed(TestInfo testInfo) throws Throwable {
        run(testInfo, this::shutdownOutputAfterClosedWithUcxPeer);
    }

    private void shutdownOutputAfterClosedWithUcxPeer(Bootstrap cb) throws Throwable {
        Handler h = new Handler();
        PeerServer ss = new PeerServer();
        try {
            SocketChannel ch = (SocketChannel) cb.handler(h).connect(ss.address()).sync().channel();
            assertTrue(ch.isActive());
            ss.accept();

            ch.close().syncUninterruptibly();
            try {
                ch.shutdownInput().syncUninterruptibly();
                fail();
            } catch (Throwable cause) {
                checkThrowable(cause);
            }
            try {
                ch.shutdownOutput().syncUninterruptibly();
                fail();
            } catch (Throwable cause) {
                checkThrowable(cause);
            }
        } finally {
            ss.close();
        }
    }

    @Test
    @Timeout(value = 30000, unit = TimeUnit.MILLISECONDS)
    @Override
    public void testShutdownOutputSoLingerNoAssertError(TestInfo testInfo) throws Throwable {
        run(testInfo, cb -> shutdownSoLingerNoAssertErrorWithUcxPeer(cb, true));
    }

    @Test
    @Timeout(value = 30000, unit = TimeUnit.MILLISECONDS)
    @Override
    public void testShutdownSoLingerNoAssertError(TestInfo testInfo) throws Throwable {
        run(testInfo, cb -> shutdownSoLingerNoAssertErrorWithUcxPeer(cb, false));
    }

    private void shutdownSoLingerNoAssertErrorWithUcxPeer(Bootstrap cb, boolean output) throws Throwable {
        PeerServer ss = new PeerServer();
        ChannelFuture cf = null;
        try {
            cf = cb.option(ChannelOption.SO_LINGER, 1).handler(new ChannelInboundHandlerAdapter())
                    .connect(ss.address()).sync();
            ss.accept();

            cf.sync();

            if (output) {
                ((SocketChannel) cf.channel()).shutdownOutput().sync();
            } else {
                ((SocketChannel) cf.channel()).shutdown().sync();
            }
        } finally {
            if (cf != null) {
                cf.channel().close();
            }
            ss.close();
        }
    }

    private static void checkThrowable(Throwable cause) throws Throwable {
        if (!(cause instanceof ClosedChannelException) && !(cause instanceof SocketException)) {
            throw cause;
        }
    }

    /** The client-side handler of the upstream test: records the channel and the bytes it reads. */
    private static final class Handler extends SimpleChannelInboundHandler<ByteBuf> {
        volatile SocketChannel ch;
        final BlockingQueue<Byte> queue = new LinkedBlockingQueue<>();

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ch = (SocketChannel) ctx.channel();
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
            while (msg.isReadable()) {
                queue.offer(msg.readByte());
            }
        }
    }

    /**
     * The peer: a UCX server channel accepting one connection, with ALLOW_HALF_CLOSURE so that it keeps
     * writing after the client shut down its output. {@link #read()} returns the next received byte, or -1 once
     * the input is shut down, like {@code InputStream.read()} on the accepted socket did upstream.
     */
    private static final class PeerServer {
        private static final int EOF = -1;
        private final Channel server;
        private final Promise<Channel> accepted = ImmediateEventExecutor.INSTANCE.newPromise();
        private final BlockingQueue<Integer> received = new LinkedBlockingQueue<>();

        PeerServer() throws InterruptedException {
            UcxSocketTestPermutation p = UcxSocketTestPermutation.instance();
            server = p.serverSocket().get(0).newInstance()
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelActive(ChannelHandlerContext ctx) {
                            accepted.trySuccess(ctx.channel());
                        }

                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf buf = (ByteBuf) msg;
                            while (buf.isReadable()) {
                                received.add(buf.readByte() & 0xff);
                            }
                            buf.release();
                        }

                        @Override
                        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                            if (evt instanceof ChannelInputShutdownEvent) {
                                received.add(EOF);
                            }
                        }
                    })
                    .bind(new InetSocketAddress(NetUtil.LOCALHOST, 0)).sync().channel();
        }

        InetSocketAddress address() {
            return (InetSocketAddress) server.localAddress();
        }

        Channel accept() throws InterruptedException {
            assertTrue(accepted.await(10, TimeUnit.SECONDS), "peer server did not accept the connection");
            return accepted.getNow();
        }

        int read() throws InterruptedException {
            Integer b = received.poll(10, TimeUnit.SECONDS);
            assertNotNull(b, "peer read nothing within 10 s");
            return b;
        }

        void close() {
            Channel child = accepted.getNow();
            if (child != null) {
                child.close().syncUninterruptibly();
            }
            server.close().syncUninterruptibly();
        }
    }
}
