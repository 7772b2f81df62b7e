/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.micrometer.UcxMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The transport's meters ({@link UcxMetrics}: connections by data path, setup failures, the loops' sleeps and
 * wake-ups, write stalls, strays, the allocator's memory) as a {@code MeterBinder} bean, which Boot's metrics
 * support binds to every {@code MeterRegistry} of the application. Present whenever Micrometer and
 * {@code netty-ucx-micrometer} are on the class path, whatever {@code netty.ucx.enabled} says: an application may
 * use the transport through gRPC or its own bootstraps rather than through Reactor Netty. Backs off for an
 * application's own {@link UcxMetrics} bean.
 */
@AutoConfiguration
@ConditionalOnClass({ MeterRegistry.class, UcxMetrics.class })
public final class UcxMetricsAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean
    UcxMetrics ucxMetrics() {
        return new UcxMetrics();
    }
}
