/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.transport.Ucx;
import org.junit.jupiter.api.Assumptions;

/** What the tests that run on UCX need. */
final class UcxChecks {
    private UcxChecks() {
    }

    /**
     * Fails when UCX cannot run here and {@code -Dnettyucx.requireUcx=true} (the build's default), with the
     * reason; skips the test otherwise.
     */
    static void requireUcx() {
        Throwable cause = Ucx.unavailabilityCause();
        if (cause != null && Boolean.getBoolean("nettyucx.requireUcx")) {
            throw new AssertionError("UCX is required (-Dnettyucx.requireUcx=true) but unavailable: " + cause, cause);
        }
        Assumptions.assumeTrue(cause == null, () -> "UCX is unavailable here: " + cause);
    }
}
