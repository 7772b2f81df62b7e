/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.transport.Ucx;
import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

/**
 * Whether the providers serve gRPC on UCX in this JVM: decided once, when gRPC first asks a provider whether it
 * is available, and logged then at INFO with the reason, so that an operator can tell from the log which
 * transport gRPC uses.
 */
final class GrpcTransportChoice {
    /** {@code false} makes the providers step aside for grpc-netty's own. */
    static final String ENABLED_PROPERTY = "io.github.nettyucx.grpc.enabled";

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(GrpcTransportChoice.class);

    private GrpcTransportChoice() {
    }

    /** True when gRPC runs on UCX here. */
    static boolean ucx() {
        return Decision.UCX;
    }

    /**
     * Why gRPC does not run on UCX, or null when it does. {@code ucxCause} is the transport's unavailability
     * cause, null when it is available; it is not asked for when the property turned the providers off.
     */
    static String whyNot(boolean enabled, Throwable ucxCause) {
        if (!enabled) {
            return "-D" + ENABLED_PROPERTY + "=false";
        }
        if (ucxCause != null) {
            return "the UCX transport is unavailable: " + ucxCause;
        }
        return null;
    }

    private static boolean decide() {
        boolean enabled = SystemPropertyUtil.getBoolean(ENABLED_PROPERTY, true);
        String whyNot = whyNot(enabled, enabled ? ucxUnavailabilityCause() : null);
        if (whyNot == null) {
            logger.info("gRPC runs on UCX: its channels and servers are grpc-netty's, on UcxEventLoopGroups "
                    + "(-D{}=false turns this off)", ENABLED_PROPERTY);
            return true;
        }
        logger.info("gRPC does not run on UCX, grpc-netty's own transport serves it: {}", whyNot);
        return false;
    }

    /** Also covers a transport jar that cannot even be linked, which must not break gRPC's provider lookup. */
    private static Throwable ucxUnavailabilityCause() {
        try {
            return Ucx.unavailabilityCause();
        } catch (LinkageError e) {
            return e;
        }
    }

    /** Holder: the decision is made and logged at the first {@link #ucx()}, once. */
    private static final class Decision {
        static final boolean UCX = decide();
    }
}
