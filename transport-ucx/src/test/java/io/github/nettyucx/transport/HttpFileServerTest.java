/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelProgressiveFuture;
import io.netty.channel.ChannelProgressiveFutureListener;
import io.netty.channel.ChannelProgressivePromise;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpChunkedInput;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedFile;
import io.netty.handler.stream.ChunkedNioFile;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small static file server on Netty's HTTP codec ({@link HttpServerCodec}, {@link ChunkedWriteHandler})
 * serves files as {@link DefaultFileRegion}s (from a {@code FileChannel} and from a path) and as
 * {@link ChunkedFile} / {@link ChunkedNioFile} chunks; a Netty HTTP client fetches each file over one
 * keep-alive connection and checks length and CRC32 of the body, and the server checks that each response's
 * progress reached the file's length and that its region was released. Sizes around the 64 KiB receive unit,
 * 10 MiB, and with {@code -Dnettyucx.longTests=true} 1 GiB (UCX only). NIO and epoll are the cross-check.
 */
class HttpFileServerTest extends AbstractSemanticsTest {
    /** {@code -Dnettyucx.longTests=true} adds the 1 GiB file (docs/development.md). */
    private static final boolean LONG_TESTS = Boolean.getBoolean("nettyucx.longTests");
    private static final long GIB = 1L << 30;
    private static final long[] SIZES = {0, 1, 64 * 1024 - 1, 64 * 1024 + 1, 10 << 20};

    @TempDir
    static Path dir;
    /** CRC32 of each file, by name. */
    private static final Map<String, Long> CRCS = new ConcurrentHashMap<>();

    enum Serve {
        REGION_FROM_CHANNEL, REGION_FROM_PATH, CHUNKED_FILE, CHUNKED_NIO_FILE
    }

    @BeforeAll
    static void createFiles() throws IOException {
        for (long size : SIZES) {
            createFile(size);
        }
        if (LONG_TESTS) {
            createFile(GIB);
        }
    }

    private static void createFile(long size) throws IOException {
        DataStream stream = new DataStream(size);
        byte[] piece = new byte[1 << 20];
        try (OutputStream out = new FileOutputStream(dir.resolve(name(size)).toFile())) {
            for (long left = size; left > 0; left -= piece.length) {
                int n = (int) Math.min(left, piece.length);
                stream.fill(piece, 0, n);
                out.write(piece, 0, n);
            }
        }
        CRCS.put(name(size), stream.crc());
    }

    private static String name(long size) {
        return "file-" + size;
    }

    static Stream<Arguments> transportsAndWays() {
        List<Arguments> all = new ArrayList<>();
        for (TestTransport transport : TestTransport.values()) {
            for (Serve serve : Serve.values()) {
                all.add(Arguments.of(transport, serve));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("transportsAndWays")
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void filesArriveByteExact(TestTransport transport, Serve serve) throws Throwable {
        try (Env env = new Env(transport, 1, 1)) {
            Map<String, String> served = new ConcurrentHashMap<>();
            Channel server = env.serverBootstrap().childHandler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(8192),
                            new ChunkedWriteHandler(), new FileServer(serve, served));
                }
            }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Fetcher fetcher = new Fetcher();
            Channel client = env.clientBootstrap().option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), fetcher);
                        }
                    }).connect(server.localAddress()).sync().channel();

            List<Long> sizes = new ArrayList<>();
            for (long size : SIZES) {
                sizes.add(size);
            }
            if (LONG_TESTS && transport == TestTransport.UCX) {
                sizes.add(GIB);
            }
            for (long size : sizes) {
                String name = name(size);
                Fetched got = await(fetcher.fetch(client, "/" + name), size == GIB ? 600 : 60, "GET /" + name);
                assertEquals(HttpResponseStatus.OK, got.status, name);
                assertEquals(size, got.contentLength, "Content-Length of " + name);
                assertEquals(size, got.bytes, "body bytes of " + name);
                assertEquals(CRCS.get(name), got.crc, "CRC32 of the body of " + name);
                assertTrue(Await.until(() -> served.containsKey(name), 10, TimeUnit.SECONDS),
                        "the server's write of " + name + " completed");
                assertEquals("", served.get(name), "what went wrong on the server's side for " + name);
            }
            client.close().sync();
            server.close().sync();
        }
    }

    /**
     * Answers {@code GET /name} with the file, {@code serve}'s way; records for each file what went wrong on
     * this side (an empty string when nothing did) once its write completes.
     */
    private static final class FileServer extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Serve serve;
        private final Map<String, String> served;

        FileServer(Serve serve, Map<String, String> served) {
            this.serve = serve;
            this.served = served;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws IOException {
            String name = request.uri().substring(1);
            File file = dir.resolve(name).toFile();
            long length = file.length();
            HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            HttpUtil.setContentLength(response, length);
            ctx.write(response);
            ChannelProgressivePromise promise = ctx.newProgressivePromise();
            Progress progress = new Progress(name, length, served);
            promise.addListener(progress);
            switch (serve) {
                case REGION_FROM_CHANNEL:
                    progress.region = new DefaultFileRegion(new RandomAccessFile(file, "r").getChannel(), 0, length);
                    ctx.write(progress.region, promise);
                    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                    break;
                case REGION_FROM_PATH:
                    progress.region = new DefaultFileRegion(file, 0, length);
                    ctx.write(progress.region, promise);
                    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                    break;
                case CHUNKED_FILE:
                    ctx.writeAndFlush(new HttpChunkedInput(new ChunkedFile(new RandomAccessFile(file, "r"), 0, length,
                            8192)), promise);
                    break;
                default:
                    ctx.writeAndFlush(new HttpChunkedInput(new ChunkedNioFile(
                            new RandomAccessFile(file, "r").getChannel(), 0, length, 8192)), promise);
            }
        }
    }

    /** Follows the progress of one response body; records the outcome under the file's name. */
    private static final class Progress implements ChannelProgressiveFutureListener {
        private final String name;
        private final long length;
        private final Map<String, String> served;
        DefaultFileRegion region;
        private long last;
        private String problem;

        Progress(String name, long length, Map<String, String> served) {
            this.name = name;
            this.length = length;
            this.served = served;
        }

        @Override
        public void operationProgressed(ChannelProgressiveFuture future, long progress, long total) {
            if (problem == null && (progress < last || total != length)) {
                problem = "progress " + progress + " of " + total + " after " + last;
            }
            last = progress;
        }

        @Override
        public void operationComplete(ChannelProgressiveFuture future) {
            StringBuilder outcome = new StringBuilder();
            if (!future.isSuccess()) {
                outcome.append("failed: ").append(future.cause()).append("; ");
            }
            if (problem != null) {
                outcome.append(problem).append("; ");
            }
            if (length > 0 && last != length) {
                outcome.append("last progress ").append(last).append(" of ").append(length).append("; ");
            }
            if (region != null && region.refCnt() != 0) {
                outcome.append("region not released; ");
            }
            served.put(name, outcome.toString());
        }
    }

    /** What a GET returned. */
    private static final class Fetched {
        HttpResponseStatus status;
        long contentLength = -1;
        long bytes;
        long crc;
    }

    /** Sends one GET at a time and checksums the body of its response. */
    private static final class Fetcher extends SimpleChannelInboundHandler<HttpObject> {
        private volatile Promise<Fetched> pending;
        private Fetched fetched;
        private final CRC32 crc = new CRC32();

        Promise<Fetched> fetch(Channel channel, String uri) {
            Promise<Fetched> promise = ImmediateEventExecutor.INSTANCE.newPromise();
            channel.eventLoop().execute(() -> {
                pending = promise;
                fetched = new Fetched();
                crc.reset();
                FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri);
                request.headers().set(HttpHeaderNames.HOST, "localhost");
                ChannelFuture sent = channel.writeAndFlush(request);
                sent.addListener(f -> {
                    if (!f.isSuccess()) {
                        promise.tryFailure(f.cause());
                    }
                });
            });
            return promise;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            Fetched got = fetched;
            assertNotNull(got, "a response without a request");
            if (msg instanceof HttpResponse) {
                HttpResponse response = (HttpResponse) msg;
                got.status = response.status();
                got.contentLength = HttpUtil.getContentLength(response, -1L);
            }
            if (msg instanceof HttpContent) {
                ByteBuf content = ((HttpContent) msg).content();
                crc.update(content.nioBuffer());
                got.bytes += content.readableBytes();
            }
            if (msg instanceof LastHttpContent) {
                got.crc = crc.getValue();
                fetched = null;
                pending.trySuccess(got);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            Promise<Fetched> promise = pending;
            if (promise != null) {
                promise.tryFailure(new IOException("the connection closed"));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Promise<Fetched> promise = pending;
            if (promise != null) {
                promise.tryFailure(cause);
            }
            ctx.close();
        }
    }
}
