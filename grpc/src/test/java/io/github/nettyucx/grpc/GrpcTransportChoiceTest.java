/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class GrpcTransportChoiceTest {
    @Test
    void reasons() {
        assertNull(GrpcTransportChoice.whyNot(true, null));
        assertEquals("-Dio.github.nettyucx.grpc.enabled=false", GrpcTransportChoice.whyNot(false, null));
        assertEquals("the UCX transport is unavailable: java.lang.UnsatisfiedLinkError: libucp (UCX) is not installed",
                GrpcTransportChoice.whyNot(true, new UnsatisfiedLinkError("libucp (UCX) is not installed")));
    }
}
