/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.datapath.UcxConnection;
import io.github.nettyucx.handshake.UcxHandshake;
import io.github.nettyucx.handshake.UcxHandshakeLimits;
import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.kvstore.server.KvServer;
import io.github.nettyucx.kvstore.server.KvServerConfig;
import io.github.nettyucx.support.NettyTransport;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The other process of the reliability tests (started through {@link ChildJvm}). Prints what happens as lines
 * the test waits for, and answers commands on standard input.
 *
 * <pre>
 *   echo-server HOST[:PORT]         echoes every byte back                          prints PORT n
 *   sink-server HOST SEED           checks a {@link DataStream}, reports at its end  prints PORT n, RECEIVED bytes crc
 *   paused-server HOST              accepts but never reads (auto-read off)          prints PORT n
 *   stream-server HOST              streams 64 KiB chunks while writable            prints PORT n
 *   closing-server HOST BYTES       echoes, closes a connection once it read BYTES  prints PORT n,
 *                                                                                    CLOSING after n bytes
 *   idle-client HOST PORT           connects and does nothing                        prints CONNECTED
 *   echo-client HOST PORT           echo round trips of checked 16 KiB messages      prints ECHOED n, INACTIVE ms cause
 *   half-hello HOST PORT            plain TCP: intros (v6), then 20 bytes of a hello,  prints SENT
 *                                   then waits
 *   hostile-records HOST PORT KIND  a {@link RawUcxPeer} (UCX handshake done), then     prints CLOSED_BY_SERVER b
 *                                   side-channel records: KIND endless (a shutdown-output record again and again)
 *                                   or after-close ('C' and then 'S' in one write)
 *   ucx-probe [HOST PORT]           see {@link UcxProbe}
 *   grpc-server HOST, grpc-client HOST PORT   see {@link GrpcPeer}
 *   kv-server HOST                  a kvstore server over UCX                       prints PORT n
 *   registered-echo-server HOST     see {@link RegisteredMemoryPeer} (also its ALLOC and MEMORY commands)
 * stdin commands: RSS (prints RSS bytes), CONNECTIONS (prints CONNECTIONS n, native connections),
 * RECORDS (prints RECORDS n, the kv-server's record count), STRAYS (prints STRAYS n, {@link Ucx#strayMessagesDropped}),
 * ENDPOINTS (prints ENDPOINTS n, {@link Ucx#endpointsCreated}), OPEN_ENDPOINTS (prints OPEN_ENDPOINTS n,
 * {@link Ucx#endpointsOpen}), PENDING (prints PENDING n, the server channel's
 * handshakes in progress), IDS (prints IDS and, for each active accepted connection, remotePort=id:tagSecret:key,
 * what its peer's messages are tagged with and carry in their header, in hex; id 0 on the TCP data path: a test hook
 * for attacks on a victim's real tag), STALL ms (holds the server's event loop that long; prints STALLED when it
 * starts)
 * </pre>
 * The servers take {@code -Dpeer.maxPendingHandshakes=N} and {@code -Dpeer.maxPendingHandshakesPerAddress=N}
 * ({@link UcxChannelOption#MAX_PENDING_HANDSHAKES} and its per-address twin) and
 * {@code -Dpeer.handshakeTimeoutMillis=N} (default 5000), and trust whom {@code -Dio.github.nettyucx.trust} says.
 * Every channel prints ACTIVE, EXCEPTION cause and INACTIVE lines. The process halts when its standard input
 * ends (the test JVM went away) or after -Dpeer.lifetimeSeconds (default 900).
 */
public final class ReliabilityPeer {
    static final String PORT = "PORT ";
    static final String CONNECTED = "CONNECTED";
    static final String ACTIVE = "ACTIVE";
    static final String INACTIVE = "INACTIVE";
    static final String EXCEPTION = "EXCEPTION ";
    static final String RECEIVED = "RECEIVED ";
    static final String ECHOED = "ECHOED ";
    static final String SENT = "SENT";
    static final String RSS = "RSS ";
    static final String CONNECTIONS = "CONNECTIONS ";
    static final String RECORDS = "RECORDS ";
    static final String STRAYS = "STRAYS ";
    static final String ENDPOINTS = "ENDPOINTS ";
    static final String OPEN_ENDPOINTS = "OPEN_ENDPOINTS ";
    static final String STALLED = "STALLED";
    static final String PENDING = "PENDING ";
    static final String IDS = "IDS";
    static final String CLOSED_BY_SERVER = "CLOSED_BY_SERVER ";
    /** The active accepted channels of this process's server. */
    private static final Set<Channel> LIVE = ConcurrentHashMap.newKeySet();
    private static volatile Channel serverChannel;
    private static final int CHUNK = 64 * 1024;
    private static volatile KvServer kvServer;
    private static final AttributeKey<Long> READ_BYTES = AttributeKey.valueOf("reliabilityPeerReadBytes");

    private ReliabilityPeer() {
    }

    public static void main(String[] args) throws Exception {
        watchStdin();
        exitAfter(Long.getLong("peer.lifetimeSeconds", 900));
        TestTransport transport = TestTransport.valueOf(System.getProperty("peer.transport", "UCX"));
        String mode = args[0];
        if (mode.equals("half-hello")) {
            halfHello(args[1], Integer.parseInt(args[2]));
            return;
        }
        if (mode.equals("hostile-records")) {
            hostileRecords(args[1], Integer.parseInt(args[2]), args[3]);
            return;
        }
        if (mode.equals("ucx-probe")) {
            UcxProbe.run(args);
            return;
        }
        switch (mode) {
            case "grpc-server":
                GrpcPeer.serve(args[1]);
                Thread.sleep(Long.MAX_VALUE);
                return;
            case "grpc-client":
                GrpcPeer.call(args[1], Integer.parseInt(args[2]));
                Thread.sleep(Long.MAX_VALUE);
                return;
            case "registered-echo-server":
                RegisteredMemoryPeer.serve(args[1]);
                Thread.sleep(Long.MAX_VALUE);
                return;
            case "kv-server":
                kvServer = KvServer.start(new KvServerConfig().host(args[1]).port(0).transport(NettyTransport.UCX)
                        .ioThreads(1));
                print(PORT + kvServer.port());
                Thread.sleep(Long.MAX_VALUE);
                return;
            default:
                break;
        }
        EventLoopGroup group = transport.newGroup(1);
        switch (mode) {
            case "echo-server":
                serve(group, transport, args[1], new Echo());
                break;
            case "sink-server":
                serve(group, transport, args[1], null, Long.parseLong(args[2]));
                break;
            case "paused-server":
                serve(group, transport, args[1], new Reporter(), -1);
                break;
            case "stream-server":
                serve(group, transport, args[1], new Streamer());
                break;
            case "closing-server":
                serve(group, transport, args[1], new ClosingAfter(Long.parseLong(args[2])));
                break;
            case "idle-client":
                connect(group, transport, args[1], Integer.parseInt(args[2]), new Reporter());
                break;
            case "echo-client":
                connect(group, transport, args[1], Integer.parseInt(args[2]), new EchoClient());
                break;
            default:
                throw new IllegalArgumentException("unknown mode " + mode);
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void serve(EventLoopGroup group, TestTransport transport, String hostPort, ChannelHandler handler)
            throws InterruptedException {
        serve(group, transport, hostPort, handler, 0);
    }

    /** seed >= 0: a sink checking that stream; seed == -1: auto-read off. */
    private static void serve(EventLoopGroup group, TestTransport transport, String hostPort, ChannelHandler handler,
                              long seed) throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap().group(group).channel(transport.serverChannelClass());
        if (seed == -1) {
            b.childOption(ChannelOption.AUTO_READ, false);
        }
        b.childOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        // The time an accepted connection has to complete its handshake; the connect timeout as before, since it
        // also bounds (at least 10 s) a UCX endpoint's wire-up, which tests of this peer may rely on.
        int handshakeTimeoutMillis = Integer.getInteger("peer.handshakeTimeoutMillis", 5_000);
        b.childOption(UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS, handshakeTimeoutMillis);
        b.childOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, handshakeTimeoutMillis);
        Integer maxPending = Integer.getInteger("peer.maxPendingHandshakes");
        if (maxPending != null) {
            b.option(UcxChannelOption.MAX_PENDING_HANDSHAKES, maxPending);
        }
        Integer maxPendingPerAddress = Integer.getInteger("peer.maxPendingHandshakesPerAddress");
        if (maxPendingPerAddress != null) {
            b.option(UcxChannelOption.MAX_PENDING_HANDSHAKES_PER_ADDRESS, maxPendingPerAddress);
        }
        b.childHandler(handler != null ? handler : new Sink(seed));
        Channel server = b.bind(address(hostPort)).sync().channel();
        serverChannel = server;
        print(PORT + ((InetSocketAddress) server.localAddress()).getPort());
    }

    private static void connect(EventLoopGroup group, TestTransport transport, String host, int port,
                                ChannelHandler handler) throws InterruptedException {
        new Bootstrap().group(group).channel(transport.clientChannelClass())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(handler).connect(new InetSocketAddress(host, port)).sync();
        print(CONNECTED);
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return colon < 0 ? new InetSocketAddress(hostPort, 0)
                : new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    /**
     * A connection that is never completed: the intros (v6), then the first 20 bytes of a valid client hello, then
     * silence. The server holds no native connection for it: it creates one only for a complete hello.
     */
    private static void halfHello(String host, int port) throws Exception {
        Socket socket = new Socket(host, port);
        RawHandshake handshake = new RawHandshake(socket);
        handshake.intro();
        ByteBuffer hello = RawHandshake.validClientHello();
        handshake.write(hello.array(), 20);
        print(SENT);
        Thread.sleep(Long.MAX_VALUE);
    }

    /**
     * A peer that completes the UCX handshake and then breaks the records: {@code endless} shutdown-output
     * records (a second one is already a protocol error), or {@code after-close}: a close record and a record after
     * it, in one write. Prints whether the server then ended the connection.
     */
    private static void hostileRecords(String host, int port, String kind) throws Exception {
        Ucx.ensureAvailability();
        try (RawUcxPeer peer = RawUcxPeer.connect(new InetSocketAddress(host, port)).handshake()) {
            if (kind.equals("endless")) {
                ByteBuffer records = ByteBuffer.allocate(UcxHandshake.RECORD_BYTES * 1024);
                while (records.hasRemaining()) {
                    records.put(UcxHandshake.RECORD_SHUTDOWN_OUTPUT).putInt(0);
                }
                try {
                    // 10 MiB of records at most: the server must have ended it long before.
                    for (int i = 0; i < 2048; i++) {
                        records.flip();
                        peer.writeSide(records);
                    }
                } catch (IOException e) {
                    print(CLOSED_BY_SERVER + "true (" + e.getMessage() + ")");
                    return;
                }
            } else if (kind.equals("after-close")) {
                ByteBuffer records = ByteBuffer.allocate(2 * UcxHandshake.RECORD_BYTES);
                records.put(UcxHandshake.RECORD_CLOSE).putInt(0).put(UcxHandshake.RECORD_SHUTDOWN_OUTPUT).putInt(0)
                        .flip();
                peer.writeSide(records);
            } else {
                throw new IllegalArgumentException("unknown kind " + kind);
            }
            print(CLOSED_BY_SERVER + peer.awaitClosedByServer(10));
        }
    }

    static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private static void watchStdin() {
        daemon("peer-stdin", () -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String command;
                while ((command = in.readLine()) != null) {
                    if (command.startsWith("STALL ")) {
                        stall(Long.parseLong(command.substring("STALL ".length()).trim()));
                        continue;
                    }
                    switch (command.trim()) {
                        case "RSS":
                            print(RSS + ResourceSnapshot.rssBytes());
                            break;
                        case "CONNECTIONS":
                            print(CONNECTIONS + UcxNative.connectionsAllocated());
                            break;
                        case "RECORDS":
                            print(RECORDS + (kvServer == null ? -1 : kvServer.store().recordCount()));
                            break;
                        case "STRAYS":
                            print(STRAYS + Ucx.strayMessagesDropped());
                            break;
                        case "ENDPOINTS":
                            print(ENDPOINTS + Ucx.endpointsCreated());
                            break;
                        case "OPEN_ENDPOINTS":
                            print(OPEN_ENDPOINTS + Ucx.endpointsOpen());
                            break;
                        case "PENDING":
                            print(PENDING + pendingHandshakes());
                            break;
                        case "IDS":
                            print(IDS + liveConnectionIds());
                            break;
                        default:
                            String answer = RegisteredMemoryPeer.command(command.trim());
                            print(answer != null ? answer : "UNKNOWN " + command);
                    }
                }
            } catch (IOException e) {
                // Like end of input.
            }
            Runtime.getRuntime().halt(3);
        });
    }

    /**
     * Holds the server channel's event loop (and so its accepted connections, with one loop) for {@code millis}, to
     * let the kernel move on while the server reads nothing; prints STALLED once the loop is held.
     */
    private static void stall(long millis) {
        serverChannel.eventLoop().execute(() -> {
            print(STALLED);
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** The server channel's handshakes in progress ({@link UcxHandshakeLimits}); -1 without a UCX server. */
    private static int pendingHandshakes() {
        Channel server = serverChannel;
        if (!(server instanceof UcxServerSocketChannel)) {
            return -1;
        }
        return ((UcxServerSocketChannel) server).config().handshakeLimits.pending();
    }

    /**
     * " port=id:tagSecret:key" for each active accepted UCX channel, in hex: the tag and header key its UCX
     * connection receives with (read on its loop).
     */
    private static String liveConnectionIds() {
        StringBuilder ids = new StringBuilder();
        for (Channel channel : LIVE) {
            if (!(channel instanceof UcxSocketChannel)) {
                continue;
            }
            UcxSocketChannel ucx = (UcxSocketChannel) channel;
            try {
                String tag = ucx.eventLoop().submit(() -> {
                    UcxConnection connection = ucx.link.connection();
                    return connection == null ? "0:0:0" : Integer.toHexString(connection.id()) + ':'
                            + Long.toHexString(connection.tagSecret()) + ':'
                            + Integer.toHexString(connection.messageKey());
                }).get(5, TimeUnit.SECONDS);
                ids.append(' ').append(ucx.remoteAddress().getPort()).append('=').append(tag);
            } catch (Exception e) {
                ids.append(' ').append(ucx.remoteAddress().getPort()).append("=?");
            }
        }
        return ids.toString();
    }

    private static void exitAfter(long seconds) {
        daemon("peer-lifetime", () -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
            } catch (InterruptedException e) {
                // Exit anyway.
            }
            Runtime.getRuntime().halt(4);
        });
    }

    private static void daemon(String name, Runnable task) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
    }

    /** Prints the channel's life; releases what it reads. */
    @ChannelHandler.Sharable
    static class Reporter extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            if (ctx.channel().parent() != null) {
                LIVE.add(ctx.channel());
            }
            print(ACTIVE + " " + ctx.channel().remoteAddress());
            super.channelActive(ctx);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            LIVE.remove(ctx.channel());
            print(INACTIVE + " " + ctx.channel().remoteAddress());
            super.channelInactive(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            print(EXCEPTION + ctx.channel().remoteAddress() + " " + cause);
            ctx.close();
        }
    }

    @ChannelHandler.Sharable
    private static final class Echo extends Reporter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        /** The server allows half-closure, so a client that is done would otherwise leave the channel open. */
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownReadComplete) {
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }

    @ChannelHandler.Sharable
    private static final class Streamer extends Reporter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            super.channelActive(ctx);
            pump(ctx);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            pump(ctx);
        }

        private static void pump(ChannelHandlerContext ctx) {
            Channel ch = ctx.channel();
            while (ch.isActive() && ch.isWritable()) {
                ByteBuf chunk = ctx.alloc().directBuffer(CHUNK);
                chunk.writerIndex(CHUNK);
                ctx.writeAndFlush(chunk);
            }
        }
    }

    /** Echoes, and closes each connection once it has read {@code limit} bytes from it (the rest stays unread). */
    @ChannelHandler.Sharable
    private static final class ClosingAfter extends Reporter {
        private final long limit;

        ClosingAfter(long limit) {
            this.limit = limit;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Long before = ctx.channel().attr(READ_BYTES).get();
            long read = (before == null ? 0 : before) + ((ByteBuf) msg).readableBytes();
            ctx.writeAndFlush(msg);
            ctx.channel().attr(READ_BYTES).set(read);
            if (read >= limit && ctx.channel().isOpen()) {
                print("CLOSING after " + read + " bytes");
                ctx.close();
            }
        }
    }

    /** Checks a {@link DataStream} and reports its length and CRC once the peer shut its output down. */
    private static final class Sink extends Reporter {
        private final long seed;
        private DataStream expected;
        private String error;

        Sink(long seed) {
            this.seed = seed;
        }

        @Override
        public boolean isSharable() {
            return true; // one connection per test; a new stream per active channel
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            expected = new DataStream(seed);
            error = null;
            super.channelActive(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                if (error == null) {
                    error = expected.check(buf);
                }
            } finally {
                buf.release();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownReadComplete) {
                print(RECEIVED + expected.position() + " " + expected.crc() + " " + (error == null ? "intact" : error));
                ctx.close();
            }
        }
    }

    /**
     * Keeps {@value #IN_FLIGHT} messages of 16 KiB in flight and checks every echoed byte; prints the number of
     * echoed messages every second and, when the channel ends, how long after the last echo that was.
     */
    private static final class EchoClient extends Reporter {
        private static final int MESSAGE = 16 * 1024;
        private static final int IN_FLIGHT = 4;
        private final DataStream sent = new DataStream(42);
        private final DataStream echoed = new DataStream(42);
        private long echoedBytes;
        private long lastEchoNanos = System.nanoTime();
        private String error;

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            super.channelActive(ctx);
            for (int i = 0; i < IN_FLIGHT; i++) {
                sendOne(ctx);
            }
            ctx.flush();
            ctx.executor().scheduleAtFixedRate(() -> print(ECHOED + echoedBytes / MESSAGE
                            + (error == null ? "" : " CORRUPT " + error)), 1, 1, TimeUnit.SECONDS);
        }

        private void sendOne(ChannelHandlerContext ctx) {
            ByteBuf buf = ctx.alloc().buffer(MESSAGE);
            sent.writeTo(buf, MESSAGE);
            ctx.write(buf);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                if (error == null) {
                    error = echoed.check(buf);
                }
                long before = echoedBytes / MESSAGE;
                echoedBytes += buf.readableBytes();
                lastEchoNanos = System.nanoTime();
                for (long i = before; i < echoedBytes / MESSAGE; i++) {
                    sendOne(ctx);
                }
            } finally {
                buf.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            print(INACTIVE + " " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastEchoNanos)
                    + " ms after the last echo");
            ctx.fireChannelInactive();
        }
    }
}
