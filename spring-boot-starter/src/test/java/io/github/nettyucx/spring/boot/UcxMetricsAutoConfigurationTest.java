/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.micrometer.UcxMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The starter's {@link UcxMetrics} bean: there with Micrometer on the class path (bound to a registry, its meters
 * show up), absent without it, and not made when the application has its own.
 */
class UcxMetricsAutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(UcxMetricsAutoConfiguration.class));

    @Test
    void registersTheBinderWhoseMetersReachARegistry() {
        runner.run(context -> {
            UcxMetrics metrics = context.getBean(UcxMetrics.class);
            MeterRegistry registry = new SimpleMeterRegistry();
            metrics.bindTo(registry);
            assertNotNull(registry.find(UcxMetrics.CONNECTIONS_OPENED).meter(),
                    "the binder's meters are in the registry");
            assertNotNull(registry.find(UcxMetrics.LOOP_SLEEPS).meter());
        });
    }

    @Test
    void backsOffWithoutMicrometer() {
        runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertEquals(0, context.getBeanNamesForType(UcxMetrics.class).length));
    }

    @Test
    void backsOffForTheApplicationsOwn() {
        UcxMetrics own = new UcxMetrics();
        runner.withBean(UcxMetrics.class, () -> own)
                .run(context -> assertSame(own, context.getBean(UcxMetrics.class)));
    }
}
