/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a connection carries its bytes on its own TCP socket (the TCP data path,
 * {@code ucx_stream.c}) instead of through a UCX endpoint. It does when UCX could reach the peer only
 * over TCP: UCX's tcp transport receives every message into segments of its own and copies it out, so
 * over TCP it is slower than Netty's epoll transport, which reads straight into the buffer; the TCP
 * data path reads straight into the receive slot. Shared memory (same host) and RDMA (InfiniBand,
 * RoCE) keep using UCX.
 * <p>
 * Each side tells in its hello which transports its UCX has; both then decide alike.
 * {@code -Dio.github.nettyucx.tcpDataPath}: {@code auto} (default), {@code always} (also where UCX
 * has more than TCP; for tests), {@code never} (UCX's tcp transport, as before).
 */
final class UcxTcpDataPath {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxTcpDataPath.class);

    /** This side can use the TCP data path. */
    static final int FLAG_ACCEPTS = 1;
    /** UCX on this side has a shared-memory transport, for a peer on the same host. */
    static final int FLAG_SHARED_MEMORY = 2;
    /** UCX on this side has a network transport other than TCP (InfiniBand, RoCE, ...). */
    static final int FLAG_NETWORK = 4;
    /** This side wants the TCP data path even where UCX has more than TCP. */
    static final int FLAG_INSISTS = 8;

    private static final String MODE = SystemPropertyUtil.get("io.github.nettyucx.tcpDataPath", "auto")
            .toLowerCase(Locale.ROOT);
    private static final Set<String> SHARED_MEMORY = Set.of("posix", "sysv", "xpmem");
    /** Transports that reach no other host: anything else UCX lists is a network other than TCP. */
    private static final Set<String> LOCAL = Set.of("self", "tcp", "posix", "sysv", "xpmem", "cma", "knem",
            "cuda_copy", "cuda_ipc", "gdr_copy", "rocm_copy", "rocm_ipc", "rocm_gdr");

    private static volatile int localFlags = -1;

    private UcxTcpDataPath() {
    }

    /** What this side's hello says. */
    static int localFlags() {
        int flags = localFlags;
        if (flags < 0) {
            flags = computeLocalFlags();
            localFlags = flags;
        }
        return flags;
    }

    private static int computeLocalFlags() {
        int flags = 0;
        switch (MODE) {
            case "never":
                break;
            case "always":
                flags |= FLAG_ACCEPTS | FLAG_INSISTS;
                break;
            case "auto":
                flags |= FLAG_ACCEPTS;
                break;
            default:
                logger.warn("-Dio.github.nettyucx.tcpDataPath={} is not auto, always or never; using auto", MODE);
                flags |= FLAG_ACCEPTS;
        }
        if (!Ucx.isAvailable()) {
            return flags;
        }
        String transports;
        try {
            transports = UcxNative.contextTransports();
        } catch (IOException e) {
            return flags;
        }
        for (String transport : transports.trim().split(" +")) {
            if (SHARED_MEMORY.contains(transport)) {
                flags |= FLAG_SHARED_MEMORY;
            } else if (!transport.isEmpty() && !LOCAL.contains(transport)) {
                flags |= FLAG_NETWORK;
            }
        }
        logger.debug("UCX transports:{}(TCP data path flags {})", transports, flags);
        return flags;
    }

    /** Whether the connection to a peer whose hello had {@code peerFlags} uses the TCP data path. */
    static boolean chosen(int peerFlags, boolean sameHost) {
        return chosen(localFlags(), peerFlags, sameHost);
    }

    static boolean chosen(int ours, int peerFlags, boolean sameHost) {
        if ((ours & peerFlags & FLAG_ACCEPTS) == 0) {
            return false;
        }
        if (((ours | peerFlags) & FLAG_INSISTS) != 0) {
            return true;
        }
        boolean sharedMemory = sameHost && (ours & peerFlags & FLAG_SHARED_MEMORY) != 0;
        boolean network = (ours & peerFlags & FLAG_NETWORK) != 0;
        return !sharedMemory && !network;
    }
}
