/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.reactor.UcxLoopResources;
import io.github.nettyucx.transport.Ucx;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.reactor.netty.autoconfigure.ReactorNettyProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.ReactorResourceFactory;
import reactor.netty.http.HttpResources;

import java.time.Duration;

/**
 * Reactor Netty on UCX in a Spring Boot application: with {@code netty.ucx.enabled=true}, a
 * {@link ReactorResourceFactory} whose event loops and channels are {@link UcxLoopResources}. Boot hands that factory
 * to WebFlux's Reactor Netty server ({@code NettyReactiveWebServerFactory} runs the server on its loops) and to the
 * connector of the {@code WebClient}s built from Boot's {@code WebClient.Builder}, so both run on UCX; their clients
 * still reach servers that do not speak netty-ucx, as plain TCP.
 *
 * <p>Ordered before Boot's Reactor Netty server and reactive HTTP client auto-configurations, whose own
 * {@code ReactorResourceFactory} is {@code @ConditionalOnMissingBean}: they take this one. Backs off when the property
 * is absent or false, and when the application defines its own {@code ReactorResourceFactory}. The factory does not
 * use Reactor Netty's global resources: it makes its own loops and connection pool when the context starts and
 * disposes of them when it stops, after {@code spring.reactor.netty.shutdown-quiet-period} as Boot's own does.
 *
 * <p>The loops and client connections take the settings of {@link UcxProperties} ({@code netty.ucx.*}) through the
 * loop resources; WebFlux's server takes them through a {@link NettyServerCustomizer}, which sets the options of its
 * listening channel and of the connections it accepts (an application's own {@code ReactorResourceFactory} keeps its
 * own loops and clients; only the server settings then apply). Where UCX cannot run, the start fails with
 * {@link UcxUnavailableException}, which {@link UcxUnavailableFailureAnalyzer} explains. The Netty on the class path is
 * compared with the Netty the transport was built with, and a different release line is logged as a warning.
 */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
        "org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration" })
@ConditionalOnClass({ ReactorResourceFactory.class, HttpResources.class, UcxLoopResources.class })
@ConditionalOnProperty(name = UcxReactorNettyAutoConfiguration.ENABLED_PROPERTY, havingValue = "true")
@EnableConfigurationProperties({ ReactorNettyProperties.class, UcxProperties.class })
public final class UcxReactorNettyAutoConfiguration {
    /** The property that turns this on. */
    public static final String ENABLED_PROPERTY = "netty.ucx.enabled";
    /** The prefix of the event loop threads' names, as Spring's own {@code webflux-http}. */
    static final String THREAD_PREFIX = "webflux-http";

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(
            UcxReactorNettyAutoConfiguration.class);

    /** The settings, checked once: a value the transport refuses fails the start here, naming its property. */
    @Bean
    UcxSettings ucxSettings(UcxProperties properties) {
        return new UcxSettings(properties);
    }

    @Bean
    @ConditionalOnMissingBean
    ReactorResourceFactory reactorResourceFactory(ReactorNettyProperties properties, UcxSettings settings) {
        Throwable cause = Ucx.unavailabilityCause();
        if (cause != null) {
            throw new UcxUnavailableException(cause);
        }
        NettyVersionCheck.warnOnMismatch(logger);
        ReactorResourceFactory factory = new ReactorResourceFactory();
        factory.setUseGlobalResources(false);
        factory.setLoopResourcesSupplier(() -> settings.configureLoops(UcxLoopResources.create(THREAD_PREFIX)));
        Duration quietPeriod = properties.getShutdownQuietPeriod();
        if (quietPeriod != null) {
            factory.setShutdownQuietPeriod(quietPeriod);
        }
        logger.info("Reactor Netty runs on UCX: WebFlux's server and the WebClients of Boot's WebClient.Builder use "
                + "UcxLoopResources ({}=true)", ENABLED_PROPERTY);
        return factory;
    }

    /** WebFlux's server: its listening channel's options and its connections' ({@code netty.ucx.*}). */
    @Bean
    NettyServerCustomizer ucxNettyServerCustomizer(UcxSettings settings) {
        return settings::configureServer;
    }
}
