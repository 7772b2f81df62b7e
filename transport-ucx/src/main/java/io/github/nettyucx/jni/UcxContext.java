/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import io.netty.util.internal.PlatformDependent;
import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The process's UCP context, the native resource every worker and every registered buffer hangs from: created once,
 * when this class initialises, after the native library loaded and UCX's settings were checked, and freed with the
 * process. {@link #unavailabilityCause()} says why it could not be made, naming the cause and the fix.
 */
public final class UcxContext {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxContext.class);
    private static final String INSTALL_HINT =
            "install UCX with: sudo apt-get install -y libucx-dev ucx-utils (Debian/Ubuntu)";
    /**
     * Whether UCX's own tcp transport (and its listening ports) opens: only with
     * {@code -Dio.github.nettyucx.tcpDataPath=never}, where it is the only way to reach a peer without RDMA.
     */
    private static final boolean UCX_TCP = "never".equals(
            SystemPropertyUtil.get("io.github.nettyucx.tcpDataPath", "auto").toLowerCase(Locale.ROOT));
    private static final Throwable UNAVAILABILITY_CAUSE = create();

    private UcxContext() {
    }

    /** Why the context could not be created, or null when it exists. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    /** Throws an {@link UnsatisfiedLinkError} carrying {@link #unavailabilityCause()} when there is no context. */
    public static void ensureCreated() {
        if (UNAVAILABILITY_CAUSE != null) {
            throw (Error) new UnsatisfiedLinkError("the UCX transport is unavailable: "
                    + UNAVAILABILITY_CAUSE.getMessage()).initCause(UNAVAILABILITY_CAUSE);
        }
    }

    /** Whether this process's UCX opened its own tcp transport. */
    public static boolean ucxTcpOpen() {
        return UCX_TCP;
    }

    /** The transports of the process's UCP context, space separated with a space at each end. */
    public static String transports() throws IOException {
        ensureCreated();
        return UcxNative.contextTransports();
    }

    private static Throwable create() {
        if (!"linux".equals(PlatformDependent.normalizedOs())) {
            return new UnsupportedOperationException("the UCX transport runs on Linux only");
        }
        try {
            // Loads the library, registers the natives and reads the constants it shares with Java.
            UcxNative.ensureLoaded();
        } catch (Throwable t) {
            return explainLoadFailure(UcxNativeLibrary.name(), t);
        }
        String badSetting = UcxSettingsCheck.problem(System.getenv());
        if (badSetting != null) {
            return new IllegalStateException(badSetting);
        }
        for (String exposure : UcxSettingsCheck.exposures(System.getenv(), UCX_TCP)) {
            logger.warn(exposure);
        }
        // Before the context exists, so that what UCX says while creating it reaches the application's log.
        UcxNativeLog.install();
        try {
            UcxNative.contextInit(UCX_TCP);
        } catch (Throwable t) {
            return new IllegalStateException("UCX is installed but ucp_init failed (" + t.getMessage()
                    + "); check UCX_* environment variables and the output of `ucx_info -d`", t);
        }
        logger.debug("UCP context created, libucp {}", UcxNative.ucxVersion());
        return null;
    }

    private static Throwable explainLoadFailure(String name, Throwable t) {
        if (t instanceof ExceptionInInitializerError && t.getCause() != null) {
            t = t.getCause();
        }
        Throwable mismatch = mismatch(t, 0);
        if (mismatch != null) {
            return new UnsatisfiedLinkError("the native library " + name + " does not match the classes of "
                    + "netty-ucx-transport (are both jars of the same version?): " + mismatch).initCause(t);
        }
        String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
        boolean ucxMissing = message.contains("libucp") || message.contains("libucs") || message.contains("libuct");
        if (ucxMissing || !libucpFound()) {
            return new UnsatisfiedLinkError("libucp (UCX) is not installed: " + INSTALL_HINT
                    + " (loading " + name + " failed: " + t.getMessage() + ")").initCause(t);
        }
        return new UnsatisfiedLinkError("could not load the native library " + name + " (" + whereTheJarGoes()
                + "): " + t.getMessage()).initCause(t);
    }

    /**
     * On the module path nothing requires the native jar's module (the transport loads without it), so an
     * application that does not add it finds no library there.
     */
    private static String whereTheJarGoes() {
        String arch = PlatformDependent.normalizedArch();
        if (UcxContext.class.getModule().isNamed()) {
            String module = "io.github.nettyucx.transport.linux." + arch;
            return "the transport is a module: is the netty-ucx-transport-native jar with classifier linux-" + arch
                    + " on the module path, and its module added with --add-modules " + module
                    + " or required by the application's module?";
        }
        return "is the netty-ucx-transport-native jar with classifier linux-" + arch + " on the class path?";
    }

    /**
     * The error saying that the library loaded but a native method of these classes is missing from it, or
     * one of its from the classes (RegisterNatives fails with NoSuchMethodError): the jars come from
     * different builds. Null when there is none. Netty's loader keeps the errors of its earlier attempts as
     * suppressed ones, so those are looked at too.
     */
    private static Throwable mismatch(Throwable t, int depth) {
        if (t == null || depth > 8) {
            return null;
        }
        if (t instanceof NoSuchMethodError || t instanceof UnsatisfiedLinkError
                && String.valueOf(t.getMessage()).contains(UcxNative.class.getName())) {
            return t;
        }
        for (Throwable suppressed : t.getSuppressed()) {
            Throwable found = mismatch(suppressed, depth + 1);
            if (found != null) {
                return found;
            }
        }
        return mismatch(t.getCause(), depth + 1);
    }

    /**
     * Whether libucp.so.0 is in a directory the dynamic loader searches: LD_LIBRARY_PATH, this architecture's
     * multiarch directory (Debian, Ubuntu), then the usual others. Only chooses which explanation to give.
     */
    private static boolean libucpFound() {
        List<String> dirs = new ArrayList<>();
        String paths = System.getenv("LD_LIBRARY_PATH");
        if (paths != null) {
            dirs.addAll(Arrays.asList(paths.split(":")));
        }
        String multiarch = multiarchTriplet();
        if (multiarch != null) {
            dirs.add("/usr/lib/" + multiarch);
            dirs.add("/lib/" + multiarch);
        }
        dirs.addAll(Arrays.asList("/usr/lib64", "/usr/lib", "/usr/local/lib", "/lib64", "/lib"));
        for (String dir : dirs) {
            if (!dir.isEmpty() && new File(dir, "libucp.so.0").exists()) {
                return true;
            }
        }
        return false;
    }

    /** The GNU multiarch triplet of this JVM's architecture (x86_64-linux-gnu...), or null when unknown. */
    private static String multiarchTriplet() {
        switch (PlatformDependent.normalizedArch()) {
            case "x86_64":
                return "x86_64-linux-gnu";
            case "aarch_64":
                return "aarch64-linux-gnu";
            case "ppcle_64":
                return "powerpc64le-linux-gnu";
            case "s390_64":
                return "s390x-linux-gnu";
            case "riscv64":
                return "riscv64-linux-gnu";
            default:
                return null;
        }
    }
}
