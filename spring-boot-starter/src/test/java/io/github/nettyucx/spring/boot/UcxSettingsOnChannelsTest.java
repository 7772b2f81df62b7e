/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.loop.UcxIoHandlerConfig;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.loop.WaitStrategy;
import io.netty.channel.Channel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.client.autoconfigure.reactive.ClientHttpConnectorBuilderCustomizer;
import org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Every {@code netty.ucx.*} setting reaches what it configures in a running WebFlux application: its Reactor Netty
 * server and a {@code WebClient} of Boot's builder that calls it. The settings are read back from the real channels
 * (the listening channel, the server's connection, the client's) and from the loops' group, all different from the
 * transport's defaults, and the call itself must succeed with them.
 */
class UcxSettingsOnChannelsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String TRUST = "same-user,networks:10.0.0.0/8";
    private static final Set<Channel> listeners = new CopyOnWriteArraySet<>();
    private static final Set<Channel> accepted = new CopyOnWriteArraySet<>();
    private static final Set<Channel> clients = new CopyOnWriteArraySet<>();

    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() {
        UcxChecks.requireUcx();
        app = new SpringApplicationBuilder(App.class).web(WebApplicationType.REACTIVE)
                .properties("netty.ucx.enabled=true", "server.address=127.0.0.1", "server.port=0",
                        "spring.main.banner-mode=off", "spring.reactor.netty.shutdown-quiet-period=0s",
                        "netty.ucx.wait-strategy=spin-then-sleep", "netty.ucx.spin=20us",
                        "netty.ucx.max-connections-per-loop=5000", "netty.ucx.receive-window=4",
                        "netty.ucx.receive-unit=32KB", "netty.ucx.send-slots=6", "netty.ucx.receive-in-place=false",
                        "netty.ucx.trust=" + TRUST, "netty.ucx.client-bytes-wait=150ms",
                        "netty.ucx.max-pending-handshakes=100", "netty.ucx.max-pending-handshakes-per-address=50",
                        "netty.ucx.plain-tcp-fallback=false")
                .run();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void settingsReachTheLoopsAndChannels() throws Exception {
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        String body = app.getBean(WebClient.Builder.class).baseUrl("http://127.0.0.1:" + port).build()
                .get().uri("/hello").retrieve().bodyToMono(String.class).block(TIMEOUT);
        assertEquals("hello", body);

        assertEquals(1, listeners.size(), listeners.toString());
        Channel listener = listeners.iterator().next();
        assertInstanceOf(UcxServerSocketChannel.class, listener);
        assertEquals(100, listener.config().getOption(UcxChannelOption.MAX_PENDING_HANDSHAKES));
        assertEquals(50, listener.config().getOption(UcxChannelOption.MAX_PENDING_HANDSHAKES_PER_ADDRESS));

        assertFalse(accepted.isEmpty(), "the server saw no connection");
        assertFalse(clients.isEmpty(), "the client made no connection that was seen");
        for (Channel channel : List.of(accepted.iterator().next(), clients.iterator().next())) {
            assertInstanceOf(UcxSocketChannel.class, channel);
            assertEquals(4, channel.config().getOption(UcxChannelOption.UCX_RECV_WINDOW), channel.toString());
            assertEquals(32 * 1024, channel.config().getOption(UcxChannelOption.UCX_RECV_UNIT));
            assertEquals(6, channel.config().getOption(UcxChannelOption.UCX_SEND_SLOTS));
            assertFalse(channel.config().getOption(UcxChannelOption.RECEIVE_IN_PLACE));
            assertEquals(UcxTrust.parse(TRUST).toString(), channel.config().getOption(UcxChannelOption.TRUST)
                    .toString());

            UcxIoHandlerConfig loops = assertInstanceOf(UcxEventLoopGroup.class, channel.eventLoop().parent())
                    .ioHandlerConfig();
            assertEquals(WaitStrategy.SPIN_THEN_SLEEP, loops.waitStrategy());
            assertEquals(TimeUnit.MICROSECONDS.toNanos(20), loops.spinNanos());
            assertEquals(5000, loops.maxConnectionsPerLoop());
        }
        assertEquals(150, accepted.iterator().next().config().getOption(UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS));
        assertFalse(clients.iterator().next().config().getOption(UcxChannelOption.PLAIN_TCP_FALLBACK),
                "the loop resources turn it on unless told otherwise");
    }

    /**
     * The application: Boot's auto-configuration, a route, and customizers that record the channels of the server
     * and of the WebClients (they change nothing else).
     */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        RouterFunction<ServerResponse> routes() {
            return RouterFunctions.route().GET("/hello", request -> ServerResponse.ok().bodyValue("hello")).build();
        }

        @Bean
        NettyServerCustomizer recordServerChannels() {
            return server -> server.doOnBound(bound -> listeners.add(bound.channel()))
                    .doOnConnection(connection -> accepted.add(connection.channel()));
        }

        @Bean
        ClientHttpConnectorBuilderCustomizer<ReactorClientHttpConnectorBuilder> recordClientChannels() {
            return builder -> builder.withHttpClientCustomizer(httpClient -> httpClient.doOnConnected(
                    connection -> clients.add(connection.channel())));
        }
    }
}
