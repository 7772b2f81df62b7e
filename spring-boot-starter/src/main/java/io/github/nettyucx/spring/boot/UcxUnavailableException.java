/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

/**
 * Thrown at start-up when {@code netty.ucx.enabled=true} but the UCX transport cannot run here; its cause is
 * {@code Ucx.unavailabilityCause()}. {@link UcxUnavailableFailureAnalyzer} turns it into Spring Boot's report of what
 * went wrong and what to do.
 */
public final class UcxUnavailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    UcxUnavailableException(Throwable cause) {
        super(UcxReactorNettyAutoConfiguration.ENABLED_PROPERTY + "=true, but the UCX transport cannot run here: "
                + cause.getMessage(), cause);
    }
}
