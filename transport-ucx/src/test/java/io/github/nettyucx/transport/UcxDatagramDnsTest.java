/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
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
import io.netty.resolver.HostsFileEntriesResolver;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Netty's {@link DnsNameResolver}, built with {@code datagramChannelType(UcxDatagramChannel.class)} on a UCX event
 * loop (as Reactor Netty and Vert.x build theirs), resolves names against a small DNS server the test runs on NIO
 * (Netty's DNS codec answering from a table): over IPv4 and IPv6, for A and AAAA records, and a name the server
 * does not know fails as an unknown host. No hosts file entry nor search domain takes part.
 */
@Timeout(30)
class UcxDatagramDnsTest extends AbstractLeakCheckedTest {
    private static final String NAME = "datagram.ucx.test";
    private static final String UNKNOWN = "missing.ucx.test";
    private static final byte[] IPV4 = {10, 1, 2, 3};
    private static final byte[] IPV6 = NetUtil.createByteArrayFromIpAddressString("2001:db8::27");

    /** Every answer comes from the server. */
    private static final HostsFileEntriesResolver NO_HOSTS_FILE = (host, addressTypes) -> null;

    private static EventLoopGroup ucxGroup;
    private static EventLoopGroup nioGroup;

    @BeforeAll
    static void startGroups() {
        if (!Ucx.isAvailable()) {
            return;
        }
        ucxGroup = new UcxEventLoopGroup(1, new DefaultThreadFactory("dns-ucx", true));
        nioGroup = TestTransport.NIO.newGroup(1, new DefaultThreadFactory("dns-server-nio", true));
    }

    @AfterAll
    static void stopGroups() {
        if (ucxGroup != null) {
            ucxGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
            nioGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @BeforeEach
    void requireUcx() {
        TestTransport.requireUcx();
    }

    @Test
    void resolvesAnARecordOverIpv4() throws Exception {
        DnsServer server = new DnsServer(NetUtil.LOCALHOST4);
        DnsNameResolver resolver = resolver(server.address, ResolvedAddressTypes.IPV4_ONLY);
        try {
            InetAddress address = resolver.resolve(NAME).get(10, TimeUnit.SECONDS);
            assertEquals(InetAddress.getByAddress(NAME, IPV4), address);
            assertEquals(List.of(DnsRecordType.A), server.questionTypes());
        } finally {
            resolver.close();
            server.close();
        }
    }

    @Test
    void resolvesAnAaaaRecordOverIpv6() throws Exception {
        DnsServer server = new DnsServer(NetUtil.LOCALHOST6);
        DnsNameResolver resolver = resolver(server.address, ResolvedAddressTypes.IPV6_ONLY);
        try {
            InetAddress address = resolver.resolve(NAME).get(10, TimeUnit.SECONDS);
            assertEquals(InetAddress.getByAddress(NAME, IPV6), address);
            assertEquals(List.of(DnsRecordType.AAAA), server.questionTypes());
        } finally {
            resolver.close();
            server.close();
        }
    }

    @Test
    void resolvesEveryAddressOfBothFamilies() throws Exception {
        DnsServer server = new DnsServer(NetUtil.LOCALHOST4);
        DnsNameResolver resolver = resolver(server.address, ResolvedAddressTypes.IPV4_PREFERRED);
        try {
            List<InetAddress> addresses = resolver.resolveAll(NAME).get(10, TimeUnit.SECONDS);
            assertEquals(List.of(InetAddress.getByAddress(NAME, IPV4), InetAddress.getByAddress(NAME, IPV6)),
                    addresses);
        } finally {
            resolver.close();
            server.close();
        }
    }

    @Test
    void anUnknownNameFailsAsAnUnknownHost() throws Exception {
        DnsServer server = new DnsServer(NetUtil.LOCALHOST4);
        DnsNameResolver resolver = resolver(server.address, ResolvedAddressTypes.IPV4_ONLY);
        try {
            Future<InetAddress> result = resolver.resolve(UNKNOWN).await();
            assertFalse(result.isSuccess());
            assertInstanceOf(UnknownHostException.class, result.cause());
            assertTrue(server.questionTypes().contains(DnsRecordType.A), "the server was asked");
        } finally {
            resolver.close();
            server.close();
        }
    }

    private static DnsNameResolver resolver(InetSocketAddress server, ResolvedAddressTypes types) {
        EventLoop loop = ucxGroup.next();
        return new DnsNameResolverBuilder(loop)
                .datagramChannelType(UcxDatagramChannel.class)
                .nameServerProvider(new SingletonDnsServerAddressStreamProvider(server))
                .resolvedAddressTypes(types)
                .hostsFileEntriesResolver(NO_HOSTS_FILE)
                .searchDomains(Collections.emptyList())
                .queryTimeoutMillis(5_000)
                .maxQueriesPerResolve(4)
                .build();
    }

    /** A DNS server on NIO answering A and AAAA questions for {@link #NAME}, and NXDOMAIN for other names. */
    private static final class DnsServer {
        final InetSocketAddress address;
        private final Channel channel;
        private final Queue<DnsRecordType> questions = new ConcurrentLinkedQueue<>();

        DnsServer(InetAddress host) throws InterruptedException {
            channel = new Bootstrap().group(nioGroup)
                    .channel(NioDatagramChannel.class)
                    .handler(new ChannelInitializer<DatagramChannel>() {
                        @Override
                        protected void initChannel(DatagramChannel ch) {
                            ch.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(),
                                    new Responder());
                        }
                    })
                    .bind(new InetSocketAddress(host, 0)).sync().channel();
            address = (InetSocketAddress) channel.localAddress();
        }

        List<DnsRecordType> questionTypes() {
            return questions.stream().collect(Collectors.toList());
        }

        void close() {
            channel.close().syncUninterruptibly();
        }

        private final class Responder extends SimpleChannelInboundHandler<DatagramDnsQuery> {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) {
                DnsQuestion question = query.recordAt(DnsSection.QUESTION);
                questions.add(question.type());
                DatagramDnsResponse response = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
                response.setRecursionDesired(query.isRecursionDesired());
                response.setAuthoritativeAnswer(true);
                response.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(question.name(), question.type()));
                boolean known = question.name().equals(NAME + '.');
                if (!known) {
                    response.setCode(DnsResponseCode.NXDOMAIN);
                } else if (question.type() == DnsRecordType.A) {
                    response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), DnsRecordType.A,
                            60, Unpooled.wrappedBuffer(IPV4)));
                } else if (question.type() == DnsRecordType.AAAA) {
                    response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(),
                            DnsRecordType.AAAA, 60, Unpooled.wrappedBuffer(IPV6)));
                }
                ctx.writeAndFlush(response);
            }
        }
    }
}
