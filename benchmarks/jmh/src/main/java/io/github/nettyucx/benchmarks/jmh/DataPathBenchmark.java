/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import io.github.nettyucx.support.NettyTransport;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The whole send/receive path of a transport inside one JVM: a client and an echo or sink server,
 * each on its own one-thread event loop group, over 127.0.0.1 (UCX: shared memory). One invocation
 * runs a burst of {@link #BURST} messages entirely on the event loops, so JMH's time and its gc
 * profiler's {@code gc.alloc.rate.norm} are per message of the transport, not of the harness.
 * <ul>
 *   <li>{@code pingPong}: one message in flight, echoed back (time per round trip);
 *   <li>{@code stream}: messages sent as fast as the channel stays writable, flushed every
 *       {@link #FLUSH_EVERY}, counted by the server (time per message).
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {Jvm.HEAP, Jvm.HEAP_MAX, Jvm.NO_LEAK_DETECTION})
public class DataPathBenchmark {
    static final int BURST = 2000;
    static final int FLUSH_EVERY = 16;
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Param({"ucx", "epoll", "nio"})
    public String transport;

    @Param({"16", "1024", "65536"})
    public int size;

    private NettyTransport chosen;
    private EventLoopGroup serverGroup;
    private EventLoopGroup clientGroup;
    private Channel server;
    private Channel pingPongClient;
    private Channel streamClient;
    private PingPong pingPong;
    private Stream stream;
    private Sink sink;

    @Setup(Level.Trial)
    public void start() throws InterruptedException {
        chosen = NettyTransport.of(transport);
        serverGroup = chosen.newEventLoopGroup(1);
        clientGroup = chosen.newEventLoopGroup(1);
        sink = new Sink();
        server = new ServerBootstrap().group(serverGroup).channel(chosen.serverSocketChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new RoleDispatcher(sink));
                    }
                })
                .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
        pingPong = new PingPong(size);
        stream = new Stream(size);
        pingPongClient = connect(pingPong, 'E');
        streamClient = connect(stream, 'S');
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        pingPongClient.close().sync();
        streamClient.close().sync();
        server.close().sync();
        clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Benchmark
    @OperationsPerInvocation(BURST)
    public void pingPong() {
        pingPong.run(pingPongClient);
    }

    @Benchmark
    @OperationsPerInvocation(BURST)
    public void stream() {
        sink.expect((long) BURST * size);
        stream.run(streamClient);
        sink.await();
    }

    private Channel connect(ChannelHandler handler, char role) throws InterruptedException {
        Channel ch = new Bootstrap().group(clientGroup).channel(chosen.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(handler)
                .connect(server.localAddress()).sync().channel();
        ch.writeAndFlush(ch.alloc().buffer(1).writeByte(role)).sync();
        return ch;
    }

    /** The first byte a client sends says what it wants: 'E'cho or 'S'ink. */
    static final class RoleDispatcher extends ChannelInboundHandlerAdapter {
        private final Sink sink;

        RoleDispatcher(Sink sink) {
            this.sink = sink;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            byte role = buf.readByte();
            ctx.pipeline().replace(this, null, role == 'E' ? new Echo() : sink);
            if (buf.isReadable()) {
                ctx.fireChannelRead(buf);
            } else {
                buf.release();
            }
        }
    }

    /** Parks the benchmark thread until the event loop says the burst is over; allocates nothing. */
    abstract static class Burst extends ChannelInboundHandlerAdapter {
        private volatile Thread waiter;
        private volatile boolean done;

        final void await() {
            while (!done) {
                LockSupport.parkNanos(this, 100_000);
            }
            done = false;
        }

        final void finish() {
            done = true;
            LockSupport.unpark(waiter);
        }

        final void prepare() {
            waiter = Thread.currentThread();
            done = false;
        }
    }

    @ChannelHandler.Sharable
    static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg, ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Sends one message, waits for all of its bytes to come back, repeats. */
    static final class PingPong extends Burst {
        private final int size;
        private final Runnable start = this::sendNext;
        private ChannelHandlerContext ctx;
        private int remaining;
        private long pendingBytes;

        PingPong(int size) {
            this.size = size;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        void run(Channel ch) {
            prepare();
            remaining = BURST;
            ch.eventLoop().execute(start);
            await();
        }

        private void sendNext() {
            ByteBuf msg = ctx.alloc().directBuffer(size);
            msg.writerIndex(size);
            pendingBytes = size;
            ctx.writeAndFlush(msg, ctx.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            pendingBytes -= buf.readableBytes();
            buf.release();
            if (pendingBytes > 0) {
                return;
            }
            if (--remaining == 0) {
                finish();
            } else {
                sendNext();
            }
        }
    }

    /** Writes the burst while the channel is writable, flushing every {@link #FLUSH_EVERY} messages. */
    static final class Stream extends Burst {
        private final int size;
        private final Runnable start = this::pump;
        private ChannelHandlerContext ctx;
        private int remaining;

        Stream(int size) {
            this.size = size;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        void run(Channel ch) {
            remaining = BURST;
            ch.eventLoop().execute(start);
        }

        private void pump() {
            Channel ch = ctx.channel();
            int sinceFlush = 0;
            while (remaining > 0 && ch.isWritable()) {
                ByteBuf msg = ctx.alloc().directBuffer(size);
                msg.writerIndex(size);
                ctx.write(msg, ctx.voidPromise());
                remaining--;
                if (++sinceFlush == FLUSH_EVERY) {
                    ctx.flush();
                    sinceFlush = 0;
                }
            }
            ctx.flush();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable() && remaining > 0) {
                pump();
            }
            ctx.fireChannelWritabilityChanged();
        }
    }

    /** Counts the bytes of every stream client and wakes the benchmark thread when a burst has arrived. */
    @ChannelHandler.Sharable
    static final class Sink extends Burst {
        private volatile long expected;
        private volatile long received;

        void expect(long bytes) {
            prepare();
            expected = bytes;
            received = 0;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            received += buf.readableBytes();
            buf.release();
            if (received >= expected && expected > 0) {
                expected = 0;
                finish();
            }
        }
    }
}
