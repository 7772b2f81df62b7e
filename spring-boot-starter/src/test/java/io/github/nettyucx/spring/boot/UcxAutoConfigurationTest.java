/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.reactor.UcxLoopResources;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When {@link UcxReactorNettyAutoConfiguration} gives the context its {@link ReactorResourceFactory}, and when it backs
 * off for Boot's own (which uses Reactor Netty's global resources) or the application's. Boot's reactive HTTP client
 * auto-configuration is in every context, so that a factory of Boot's would be made whenever ours is not, or is made
 * after Boot's.
 */
class UcxAutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(UcxReactorNettyAutoConfiguration.class,
                    HttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class));

    @Test
    void enabledGivesTheOnlyFactoryOnUcxLoops() {
        UcxChecks.requireUcx();
        runner.withPropertyValues("netty.ucx.enabled=true").run(context -> {
            assertNull(context.getStartupFailure());
            ReactorResourceFactory factory = context.getBean(ReactorResourceFactory.class);
            assertFalse(factory.isUseGlobalResources(), "the UCX factory makes its own resources");
            assertInstanceOf(UcxLoopResources.class, factory.getLoopResources());
        });
    }

    /** In a reactive web application, Boot's Netty server factory is given the UCX factory. */
    @Test
    void enabledForBootsWebServer() {
        UcxChecks.requireUcx();
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(NettyReactiveWebServerAutoConfiguration.class,
                        UcxReactorNettyAutoConfiguration.class))
                .withPropertyValues("netty.ucx.enabled=true")
                .run(context -> {
                    assertNull(context.getStartupFailure());
                    assertEquals(1, context.getBeanNamesForType(NettyReactiveWebServerFactory.class).length);
                    assertEquals(1, context.getBeanNamesForType(ReactorResourceFactory.class).length);
                    assertInstanceOf(UcxLoopResources.class,
                            context.getBean(ReactorResourceFactory.class).getLoopResources());
                });
    }

    @Test
    void absentPropertyBacksOff() {
        runner.run(context -> assertBootsFactory(context.getBean(ReactorResourceFactory.class)));
    }

    @Test
    void falsePropertyBacksOff() {
        runner.withPropertyValues("netty.ucx.enabled=false", "netty.ucx.receive-window=4").run(context -> {
            assertBootsFactory(context.getBean(ReactorResourceFactory.class));
            assertEquals(0, context.getBeanNamesForType(NettyServerCustomizer.class).length,
                    "no setting of the starter's reaches Boot's server");
        });
    }

    /** The server's settings reach Boot's Netty server through a customizer of the starter's. */
    @Test
    void enabledCustomizesBootsServer() {
        UcxChecks.requireUcx();
        runner.withPropertyValues("netty.ucx.enabled=true").run(context -> {
            assertNull(context.getStartupFailure());
            assertEquals(1, context.getBeanNamesForType(NettyServerCustomizer.class).length);
            assertEquals(1, context.getBeanNamesForType(UcxProperties.class).length);
        });
    }

    @Test
    void anApplicationsOwnFactoryWins() {
        runner.withPropertyValues("netty.ucx.enabled=true").withUserConfiguration(OwnFactory.class).run(context -> {
            assertEquals(1, context.getBeanNamesForType(ReactorResourceFactory.class).length);
            assertSame(context.getBean(OwnFactory.class).factory, context.getBean(ReactorResourceFactory.class));
        });
    }

    @Test
    void withoutTheUcxModuleBacksOff() {
        runner.withPropertyValues("netty.ucx.enabled=true")
                .withClassLoader(new FilteredClassLoader(UcxLoopResources.class))
                .run(context -> assertBootsFactory(context.getBean(ReactorResourceFactory.class)));
    }

    /** Boot's factory shares Reactor Netty's global resources; ours never does. */
    private static void assertBootsFactory(ReactorResourceFactory factory) {
        assertTrue(factory.isUseGlobalResources(), "not Boot's factory");
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFactory {
        final ReactorResourceFactory factory = new ReactorResourceFactory();

        @Bean
        ReactorResourceFactory ownReactorResourceFactory() {
            return factory;
        }
    }
}
