/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Spring Boot's start-up failure report for {@link UcxUnavailableException}: why the transport cannot run (the
 * transport's own cause, which names what is missing or refused) and the two ways out, installing UCX or running
 * Reactor Netty on its own transport. Registered in {@code META-INF/spring.factories}.
 */
public final class UcxUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<UcxUnavailableException> {
    /** The Debian/Ubuntu package with libucp, as the README's requirements name it. */
    static final String PACKAGE = "libucx0";

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UcxUnavailableException cause) {
        Throwable why = cause.getCause();
        String description = "Reactor Netty was to run on the UCX transport ("
                + UcxReactorNettyAutoConfiguration.ENABLED_PROPERTY + "=true), but UCX cannot run here: "
                + (why != null ? why.getMessage() : cause.getMessage());
        String action = "Install UCX 1.13 or later where the application runs (Debian/Ubuntu: sudo apt-get install -y "
                + PACKAGE + "; ucx_info from ucx-utils shows what UCX finds) and fix what the cause above names, or "
                + "set " + UcxReactorNettyAutoConfiguration.ENABLED_PROPERTY + "=false to run WebFlux and WebClient "
                + "on Reactor Netty's own transport.";
        return new FailureAnalysis(description, action, cause);
    }
}
