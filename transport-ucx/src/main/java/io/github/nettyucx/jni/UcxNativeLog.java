/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * Where UCX's own log lines go: Netty's logger {@value #LOGGER_NAME}, at the level UCX gave each (error and warn as
 * such, diag and info as info, debug, the trace levels as trace), as {@code file.c:line message}. Installed when the
 * transport loads, so that the warnings of UCX's setup land there too; with
 * {@code -Dio.github.nettyucx.ucxLogToNetty=false} UCX prints to stderr as it does by default. The static methods
 * are called by ucx_log.c, on whichever thread UCX logs from.
 */
public final class UcxNativeLog {
    /** The logger's name: UCX's lines are not any class's of ours. */
    public static final String LOGGER_NAME = "io.github.nettyucx.ucx";
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(LOGGER_NAME);
    private static final boolean ENABLED = SystemPropertyUtil.getBoolean("io.github.nettyucx.ucxLogToNetty", true);

    private UcxNativeLog() {
    }

    /**
     * Routes UCX's lines here until the JVM shuts down: from then on they go to stderr again, since libucs logs from
     * its destructors while the JVM exits, when no Java code may run.
     */
    public static void install() {
        if (!ENABLED) {
            return;
        }
        try {
            if (UcxNative.logInstall(UcxNativeLog.class)) {
                Runtime.getRuntime().addShutdownHook(new Thread(UcxNative::logStop, "netty-ucx-log-stop"));
            }
        } catch (Throwable t) {
            logger.debug("UCX's log lines stay on stderr: routing them to this logger failed", t);
        }
    }

    public static void error(byte[] line) {
        logger.error(text(line));
    }

    public static void warn(byte[] line) {
        logger.warn(text(line));
    }

    public static void info(byte[] line) {
        if (logger.isInfoEnabled()) {
            logger.info(text(line));
        }
    }

    public static void debug(byte[] line) {
        if (logger.isDebugEnabled()) {
            logger.debug(text(line));
        }
    }

    public static void trace(byte[] line) {
        if (logger.isTraceEnabled()) {
            logger.trace(text(line));
        }
    }

    /** UCX's bytes are meant as UTF-8 (ASCII in practice); what is not decodes to replacement characters. */
    private static String text(byte[] line) {
        return new String(line, StandardCharsets.UTF_8);
    }
}
