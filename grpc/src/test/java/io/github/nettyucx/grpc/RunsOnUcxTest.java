/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.interop.Empty;
import io.github.nettyucx.grpc.interop.InteropServiceGrpc;
import io.grpc.ChannelCredentials;
import io.grpc.EquivalentAddressGroup;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.ManagedChannelProvider;
import io.grpc.ManagedChannelRegistry;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCredentials;
import io.grpc.ServerProvider;
import io.grpc.ServerRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every way an application builds a gRPC server or channel, without naming a transport, ends on UCX: the
 * providers are gRPC's first choice, and the channels that Netty made for each call are UCX channels on the
 * providers' shared, daemon event loops ({@link UcxChecks#assertOnUcx}).
 */
class RunsOnUcxTest {
    @BeforeAll
    static void ucx() {
        UcxChecks.requireUcx();
    }

    @Test
    void theProvidersAreGrpcsFirstChoice() {
        assertInstanceOf(UcxManagedChannelProvider.class, ManagedChannelProvider.provider());
        assertInstanceOf(UcxServerProvider.class, ServerProvider.provider());
    }

    @Test
    void grpcNewBuilders() throws Exception {
        callOnUcx(Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create()),
                port -> Grpc.newChannelBuilder("127.0.0.1:" + port, InsecureChannelCredentials.create()));
    }

    @Test
    void forPortAndForAddress() throws Exception {
        callOnUcx(ServerBuilder.forPort(0), port -> ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext());
    }

    @Test
    void forTarget() throws Exception {
        callOnUcx(ServerBuilder.forPort(0),
                port -> ManagedChannelBuilder.forTarget("127.0.0.1:" + port).usePlaintext());
    }

    /** A name resolver registry given to {@code Grpc.newChannelBuilder} is the one the channel resolves with. */
    @Test
    void ownNameResolverRegistry() throws Exception {
        callOnUcx(Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create()), port -> {
            NameResolverRegistry registry = new NameResolverRegistry();
            registry.register(new FixedAddressResolverProvider(new InetSocketAddress("127.0.0.1", port)));
            return Grpc.newChannelBuilder(FixedAddressResolverProvider.SCHEME + ":///the-server",
                    InsecureChannelCredentials.create(), registry);
        });
    }

    /** Credentials that grpc-netty cannot take are refused by both providers, each with its reason. */
    @Test
    void credentialsGrpcNettyCannotTake() {
        ManagedChannelRegistry.ProviderNotFoundException channel = assertThrows(
                ManagedChannelRegistry.ProviderNotFoundException.class,
                () -> Grpc.newChannelBuilder("127.0.0.1:1", new UnknownChannelCredentials()));
        assertTrue(channel.getMessage().contains(UcxManagedChannelProvider.class.getName()), channel.getMessage());
        ServerRegistry.ProviderNotFoundException server = assertThrows(ServerRegistry.ProviderNotFoundException.class,
                () -> Grpc.newServerBuilderForPort(0, new UnknownServerCredentials()));
        assertTrue(server.getMessage().contains(UcxServerProvider.class.getName()), server.getMessage());
    }

    private static void callOnUcx(ServerBuilder<?> serverBuilder, IntFunction<ManagedChannelBuilder<?>> channelBuilder)
            throws Exception {
        Server server = serverBuilder.addService(new InteropServiceImpl()).build().start();
        ManagedChannel channel = null;
        try {
            channel = channelBuilder.apply(server.getPort()).build();
            assertEquals(Empty.getDefaultInstance(), InteropServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(30, TimeUnit.SECONDS).emptyCall(Empty.getDefaultInstance()));
            UcxChecks.assertOnUcx(server.getPort());
        } finally {
            if (channel != null) {
                channel.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
            }
            server.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    /** Resolves every target of its scheme to one address. */
    private static final class FixedAddressResolverProvider extends NameResolverProvider {
        static final String SCHEME = "fixed-test";
        private final InetSocketAddress address;

        FixedAddressResolverProvider(InetSocketAddress address) {
            this.address = address;
        }

        @Override
        protected boolean isAvailable() {
            return true;
        }

        @Override
        protected int priority() {
            return 5;
        }

        @Override
        public String getDefaultScheme() {
            return SCHEME;
        }

        @Override
        public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
            if (!SCHEME.equals(targetUri.getScheme())) {
                return null;
            }
            return new NameResolver() {
                @Override
                public String getServiceAuthority() {
                    return "the-server";
                }

                @Override
                public void start(Listener2 listener) {
                    listener.onResult(ResolutionResult.newBuilder()
                            .setAddresses(List.of(new EquivalentAddressGroup(address))).build());
                }

                @Override
                public void shutdown() {
                }
            };
        }
    }

    private static final class UnknownChannelCredentials extends ChannelCredentials {
        @Override
        public ChannelCredentials withoutBearerTokens() {
            return this;
        }
    }

    private static final class UnknownServerCredentials extends ServerCredentials {
    }
}
