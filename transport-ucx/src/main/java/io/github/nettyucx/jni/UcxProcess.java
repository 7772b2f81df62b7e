/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

/**
 * What the native library tells of the process and its host, no native resource's: UCX's version and status
 * names (ucx_context.c), the process's endpoint and stray-message counts (ucx_conn.c, ucx_stray.c), the host's
 * CPUs (ucx_host.c) and the calling thread's time slice (ucx_thread.c).
 */
public final class UcxProcess {
    private UcxProcess() {
    }

    /** The version of the libucp loaded. */
    public static String ucxVersion() {
        return UcxNative.ucxVersion();
    }

    /** UCX's name for a {@code ucs_status_t}. */
    public static String statusString(int status) {
        return UcxNative.statusString(status);
    }

    /** Calls of ucp_ep_create for connections in this process. */
    public static long endpointsCreated() {
        return UcxNative.endpointsCreated();
    }

    /** Endpoints of this process's connections not destroyed yet. */
    public static long endpointsOpen() {
        return UcxNative.endpointsOpen();
    }

    /** Messages no receive wanted, dropped by the workers of this process. */
    public static long straysDropped() {
        return UcxNative.straysDropped();
    }

    /** The host's online CPUs, whatever this process may use; -1 if unknown. */
    public static int hostOnlineCpus() {
        return UcxNative.hostOnlineCpus();
    }

    /** The threads running or runnable on the host's CPUs now (/proc/loadavg), the caller included; -1 if unknown. */
    public static int hostRunnableThreads() {
        return UcxNative.hostRunnableThreads();
    }

    /**
     * Asks the kernel for a time slice of {@code nanos} for the calling thread (0: the kernel's default), keeping
     * its policy and nice value; returns the slice the kernel reports then (0 where it keeps none per thread), or
     * a negative errno.
     */
    public static long requestTimeSlice(long nanos) {
        return UcxNative.threadRequestSlice(nanos);
    }
}
