/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.buffer.UcxMemoryRegistration;
import io.netty.util.internal.NativeLibraryLoader;
import io.netty.util.internal.PlatformDependent;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.File;
import java.util.Locale;

/**
 * Tells whether the UCX transport can be used in this JVM, and why not.
 */
public final class Ucx {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(Ucx.class);
    private static final String INSTALL_HINT =
            "install UCX with: sudo apt-get install -y libucx-dev ucx-utils (Debian/Ubuntu)";
    private static final Throwable UNAVAILABILITY_CAUSE = load();

    private Ucx() {
    }

    /** True when the native library and libucp loaded and a UCP context could be created. */
    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /** Throws an {@link UnsatisfiedLinkError} carrying {@link #unavailabilityCause()} when unavailable. */
    public static void ensureAvailability() {
        if (UNAVAILABILITY_CAUSE != null) {
            throw (Error) new UnsatisfiedLinkError("the UCX transport is unavailable: "
                    + UNAVAILABILITY_CAUSE.getMessage()).initCause(UNAVAILABILITY_CAUSE);
        }
    }

    /** Why the transport is unavailable, or null when it is available. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    /** The version of the libucp in use. */
    public static String ucxVersion() {
        ensureAvailability();
        return UcxNative.ucxVersion();
    }

    private static Throwable load() {
        if (!"linux".equals(PlatformDependent.normalizedOs())) {
            return new UnsupportedOperationException("the UCX transport runs on Linux only");
        }
        if (!PlatformDependent.hasUnsafe()) {
            return new UnsupportedOperationException(
                    "the UCX transport needs sun.misc.Unsafe: " + PlatformDependent.getUnsafeUnavailabilityCause());
        }
        String name = "netty_ucx_native_" + PlatformDependent.normalizedArch();
        try {
            NativeLibraryLoader.load(name, Ucx.class.getClassLoader());
        } catch (Throwable t) {
            return explainLoadFailure(name, t);
        }
        String badSetting = UcxSettingsCheck.problem(System.getenv());
        if (badSetting != null) {
            return new IllegalStateException(badSetting);
        }
        try {
            UcxNative.contextInit();
        } catch (Throwable t) {
            return new IllegalStateException("UCX is installed but ucp_init failed (" + t.getMessage()
                    + "); check UCX_* environment variables and the output of `ucx_info -d`", t);
        }
        UcxMemoryRegistration.install(new UcxNativeMemory());
        logger.debug("UCX transport available, libucp {}", UcxNative.ucxVersion());
        return null;
    }

    private static Throwable explainLoadFailure(String name, Throwable t) {
        String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
        boolean ucxMissing = message.contains("libucp") || message.contains("libucs") || message.contains("libuct");
        if (ucxMissing || !new File("/usr/lib/x86_64-linux-gnu/libucp.so.0").exists() && !libucpOnPath()) {
            return new UnsatisfiedLinkError("libucp (UCX) is not installed: " + INSTALL_HINT
                    + " (loading " + name + " failed: " + t.getMessage() + ")");
        }
        return new UnsatisfiedLinkError("could not load the native library " + name
                + " (is the netty-ucx-transport-native jar with classifier linux-"
                + PlatformDependent.normalizedArch() + " on the class path?): " + t.getMessage());
    }

    private static boolean libucpOnPath() {
        String paths = System.getenv("LD_LIBRARY_PATH");
        if (paths == null) {
            return false;
        }
        for (String dir : paths.split(":")) {
            if (!dir.isEmpty() && new File(dir, "libucp.so.0").exists()) {
                return true;
            }
        }
        return false;
    }
}
