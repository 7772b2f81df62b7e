/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.github.nettyucx.transport.TestTransport;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Skips every test of the annotated class when UCX is unavailable, unless {@code -Dnettyucx.requireUcx=true},
 * in which case they fail with the unavailability cause. Checked before each test (rather than once per class)
 * so that skipped tests are counted one by one in the reports.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(RequireUcx.Check.class)
public @interface RequireUcx {

    final class Check implements BeforeEachCallback {
        @Override
        public void beforeEach(ExtensionContext context) {
            TestTransport.requireUcx();
        }
    }
}
