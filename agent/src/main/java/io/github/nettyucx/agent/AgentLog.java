/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import java.lang.reflect.Method;

/**
 * The agent's WARN where it stands aside, written through the application's own Netty logger, found by reflection
 * in Netty's class loader: that Netty may be one the agent cannot link against (4.1, another class loader).
 */
final class AgentLog {
    private AgentLog() {
    }

    static void warn(ClassLoader nettyLoader, String message) {
        try {
            Class<?> factory = Class.forName("io.netty.util.internal.logging.InternalLoggerFactory", true, nettyLoader);
            Object logger = factory.getMethod("getInstance", String.class).invoke(null, "io.github.nettyucx.agent");
            Method warn = Class.forName("io.netty.util.internal.logging.InternalLogger", true, nettyLoader)
                    .getMethod("warn", String.class);
            warn.invoke(logger, message);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            // No Netty logger to be had: the line must still reach the user, and stderr is where the JVM's own go.
            System.err.println(message);
        }
    }
}
