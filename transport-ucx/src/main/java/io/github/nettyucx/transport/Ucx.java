/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.buffer.UcxMemoryRegistration;
import io.netty.util.internal.PlatformDependent;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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

    /**
     * How many times, since this JVM started, a thread outside the UCX event loops woke a sleeping loop by
     * writing its eventfd. A loop that is awake (running tasks, or spinning for work) takes tasks and writes
     * from other threads without that system call; benchmarks divide this by their calls to show how often
     * an application thread's write paid for a wake-up.
     */
    public static long eventLoopWakeupWrites() {
        return UcxIoHandler.WAKEUP_WRITES.sum();
    }

    /**
     * How many times, since this JVM started, an event loop that waits adaptively (the default) found the host's
     * CPUs taken by other runnable threads and began a period of sleeping at once, as epoll's loop waits
     * (docs/settings.md#waiting).
     */
    public static long eventLoopContentionHolds() {
        return UcxIoHandler.CPUS_TAKEN_PERIODS.sum();
    }

    /**
     * UCX messages that no receive of a live connection wanted (sent without credit, repeated, aimed at a
     * connection that is gone or never was), dropped since the process started. Such a message never closes a
     * connection: UCX does not tell who sent it (docs/security.md).
     */
    public static long strayMessagesDropped() {
        return isAvailable() ? UcxNative.straysDropped() : 0;
    }

    /**
     * Connections of this process whose peer's worker address reached UCX, since it started: each got a UCP
     * endpoint, a new one or the one its event loop's worker already had to the peer's worker. Only trusted peers'
     * addresses get that far (docs/security.md).
     */
    public static long endpointsCreated() {
        return isAvailable() ? UcxNative.endpointsCreated() : 0;
    }

    /**
     * UCP endpoints of connections open now: one per pair of an event loop's worker and a peer worker, however
     * many connections between the two share it (docs/protocol.md).
     */
    public static long endpointsOpen() {
        return isAvailable() ? UcxNative.endpointsOpen() : 0;
    }

    private static Throwable load() {
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
        String noOwnerKeys = UcxWorkerKey.unavailabilityCause();
        if (noOwnerKeys != null) {
            return new IllegalStateException(noOwnerKeys);
        }
        for (String exposure : UcxSettingsCheck.exposures(System.getenv(), UcxDataPathPolicy.ucxTcpWanted())) {
            logger.warn(exposure);
        }
        // Before the context exists, so that what UCX says while creating it reaches the application's log.
        UcxNativeLog.install();
        try {
            UcxNative.contextInit(UcxDataPathPolicy.ucxTcpWanted());
        } catch (Throwable t) {
            return new IllegalStateException("UCX is installed but ucp_init failed (" + t.getMessage()
                    + "); check UCX_* environment variables and the output of `ucx_info -d`", t);
        }
        UcxMemoryRegistration.install(new UcxNativeMemory());
        logger.debug("UCX transport available, libucp {}", UcxNative.ucxVersion());
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
        return new UnsatisfiedLinkError("could not load the native library " + name
                + " (is the netty-ucx-transport-native jar with classifier linux-"
                + PlatformDependent.normalizedArch() + " on the class path?): " + t.getMessage()).initCause(t);
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
