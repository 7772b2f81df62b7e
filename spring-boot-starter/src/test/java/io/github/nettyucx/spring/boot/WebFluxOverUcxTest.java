/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.reactor.UcxLoopResources;
import io.github.nettyucx.spring.boot.app.UcxWebFluxApp;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.client.autoconfigure.reactive.ClientHttpConnectorBuilderCustomizer;
import org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.web.reactive.function.client.WebClient;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A WebFlux application ({@link UcxWebFluxApp}) in a JVM of its own and a {@code WebClient} from Boot's
 * {@code WebClient.Builder} in this one, both with the starter and {@code netty.ucx.enabled=true}: the server and the
 * client connections are UCX channels on the starter's loops, whose bytes travel through UCX endpoints.
 */
class WebFluxOverUcxTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** The client connections, with what {@code ucxLanes()} said of each when it was made. */
    private static final Map<Channel, Future<String>> clientConnections =
            new ConcurrentHashMap<>();

    private static ChildJvm server;
    private static int port;
    private static ConfigurableApplicationContext client;

    @BeforeAll
    static void start() throws Exception {
        UcxChecks.requireUcx();
        server = new ChildJvm(UcxWebFluxApp.class, "--netty.ucx.enabled=true", "--server.address=127.0.0.1",
                "--server.port=0", "--spring.main.banner-mode=off");
        port = Integer.parseInt(server.awaitLine(UcxWebFluxApp.PORT_LINE, 45));
        client = new SpringApplicationBuilder(ClientApp.class).web(WebApplicationType.NONE)
                .properties("netty.ucx.enabled=true", "spring.main.banner-mode=off",
                        "spring.reactor.netty.shutdown-quiet-period=0s")
                .run();
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theServerRunsOnUcx() {
        String[] transport = webClient().get().uri("/transport").retrieve().bodyToMono(String.class)
                .block(TIMEOUT).split("\n", 3);
        assertEquals("class=" + UcxSocketChannel.class.getName(), transport[0], server.output());
        assertTrue(transport[1].startsWith("thread=" + UcxReactorNettyAutoConfiguration.THREAD_PREFIX + "-ucx-"),
                transport[1]);
        assertTrue(transport[2].startsWith("lanes=") && transport[2].contains("lane"),
                "the server's connection does not use a UCX endpoint: " + transport[2]);
    }

    @Test
    void theClientRunsOnUcx() throws Exception {
        ReactorResourceFactory factory = client.getBean(ReactorResourceFactory.class);
        assertInstanceOf(UcxLoopResources.class, factory.getLoopResources());

        Set<EventExecutor> loops = new HashSet<>();
        factory.getLoopResources().onServer(true).forEach(loops::add);

        assertEquals("hello", webClient().get().uri("/hello").retrieve().bodyToMono(String.class).block(TIMEOUT));
        assertFalse(clientConnections.isEmpty(), "the WebClient made no connection that was seen");
        for (Map.Entry<Channel, Future<String>> e : clientConnections.entrySet()) {
            assertInstanceOf(UcxSocketChannel.class, e.getKey());
            assertTrue(loops.contains(e.getKey().eventLoop()), e.getKey() + " is not on the factory's loops");
            String lanes = e.getValue().get(30, TimeUnit.SECONDS);
            assertTrue(lanes.contains("lane"), "the client's connection does not use a UCX endpoint: " + lanes);
        }
    }

    @Test
    void aLargeBodyIsEchoed() {
        byte[] sent = new byte[4 << 20];
        new SplittableRandom(41).nextBytes(sent);
        byte[] echoed = webClient().post().uri("/echo").bodyValue(sent).retrieve().bodyToMono(byte[].class)
                .block(TIMEOUT);
        assertArrayEquals(sent, echoed);
    }

    private static WebClient webClient() {
        return client.getBean(WebClient.Builder.class).baseUrl("http://127.0.0.1:" + port)
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(16 << 20))
                .build();
    }

    /**
     * The client application: Boot's auto-configuration, and a customizer of Boot's Reactor connector that records
     * the connections the WebClients make (it changes nothing else).
     */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class ClientApp {
        @Bean
        ClientHttpConnectorBuilderCustomizer<ReactorClientHttpConnectorBuilder> recordConnections() {
            return builder -> builder.withHttpClientCustomizer(httpClient -> httpClient.doOnConnected(
                    connection -> clientConnections.computeIfAbsent(connection.channel(), channel ->
                            channel instanceof UcxSocketChannel ? ((UcxSocketChannel) channel).ucxLanes()
                                    : channel.eventLoop().newSucceededFuture("not a UCX channel"))));
        }
    }
}
