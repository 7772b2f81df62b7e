/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsSection;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A DNS server over UDP on 127.0.0.1 (on NIO: it stands for the network's resolver): answers A queries for one
 * name with one address, every other query with no answer, and counts the queries per name.
 */
final class TestDnsServer implements AutoCloseable {
    private final String name;
    private final InetAddress address;
    private final Map<String, AtomicInteger> queries = new ConcurrentHashMap<>();
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel channel;

    /** Serves {@code name} (without the final dot) as {@code address}. */
    TestDnsServer(String name, InetAddress address) throws InterruptedException {
        this.name = name + ".";
        this.address = address;
        channel = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                .handler(new ChannelInitializer<NioDatagramChannel>() {
                    @Override
                    protected void initChannel(NioDatagramChannel ch) {
                        ch.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(),
                                new Answer());
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** The queries of any type received for {@code name} (without the final dot). */
    int queries(String name) {
        AtomicInteger count = queries.get(name + ".");
        return count == null ? 0 : count.get();
    }

    @Override
    public void close() throws InterruptedException {
        channel.close().sync();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
    }

    private final class Answer extends SimpleChannelInboundHandler<DatagramDnsQuery> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) {
            DnsQuestion question = query.recordAt(DnsSection.QUESTION);
            queries.computeIfAbsent(question.name(), n -> new AtomicInteger()).incrementAndGet();
            DatagramDnsResponse response = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
            response.setRecursionDesired(query.isRecursionDesired()).setRecursionAvailable(true);
            response.addRecord(DnsSection.QUESTION, question);
            if (question.type() == DnsRecordType.A && name.equalsIgnoreCase(question.name())) {
                response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), DnsRecordType.A, 60,
                        Unpooled.wrappedBuffer(address.getAddress())));
            }
            ctx.writeAndFlush(response);
        }
    }
}
