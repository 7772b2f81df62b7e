/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsAddressResolverGroup;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import reactor.netty.transport.NameResolverProvider;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A DNS server on NIO for one name: it answers A queries for {@link #NAME} with 127.0.0.1 and every other query
 * with NXDOMAIN, and counts the queries, so that a test can tell a name resolved by a DNS client from one found in
 * the hosts file or by the JDK.
 */
final class TestDnsServer implements AutoCloseable {
    static final String NAME = "ucx-test.invalid";

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final AtomicInteger answered = new AtomicInteger();
    private final Channel channel;

    TestDnsServer() throws InterruptedException {
        channel = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                .handler(new ChannelInitializer<DatagramChannel>() {
                    @Override
                    protected void initChannel(DatagramChannel ch) {
                        ch.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(),
                                new Answers());
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /**
     * A client's resolver settings ({@code client.resolver(dns.resolver())}): Reactor Netty's default resolver,
     * Netty's DNS resolver on the client's loops, asking this server alone, for IPv4 addresses.
     */
    Consumer<NameResolverProvider.NameResolverSpec> resolver() {
        return spec -> spec.resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .dnsAddressResolverGroupProvider(builder -> new DnsAddressResolverGroup(
                        builder.nameServerProvider(new SingletonDnsServerAddressStreamProvider(address()))));
    }

    /** How many A queries for {@link #NAME} were answered. */
    int answered() {
        return answered.get();
    }

    @Override
    public void close() throws InterruptedException {
        channel.close().sync();
        group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
    }

    private final class Answers extends SimpleChannelInboundHandler<DatagramDnsQuery> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) {
            DnsQuestion question = query.recordAt(DnsSection.QUESTION);
            DatagramDnsResponse response = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
            response.setRecursionAvailable(true);
            response.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(question.name(), question.type()));
            String name = question.name().toLowerCase(Locale.ROOT);
            if (question.type() == DnsRecordType.A && (name.equals(NAME) || name.equals(NAME + "."))) {
                response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), DnsRecordType.A, 60,
                        Unpooled.wrappedBuffer(new byte[] {127, 0, 0, 1})));
                answered.incrementAndGet();
            } else {
                response.setCode(DnsResponseCode.NXDOMAIN);
            }
            ctx.writeAndFlush(response);
        }
    }
}
