/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.github.nettyucx.loop.UcxWorker;
import io.github.nettyucx.jni.UcxContext;
import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * Chooses the data path ({@code UcxLink}) of a connection when the peer's hello arrives: the TCP data path
 * (the connection's own TCP socket as plain TCP, {@code UcxPlainDataPath}) when UCX could reach the peer
 * only over TCP, since UCX's tcp transport copies every message out of segments of its own and was
 * slower than Netty's epoll transport (docs/settings.md#tcp-data-path); UCX tagged messages ({@code UcxTagDataPath})
 * otherwise: shared memory on one host, RDMA (InfiniBand, RoCE) across hosts.
 * <p>
 * Each side tells in its hello which transports its UCX has; both then decide alike.
 * {@code -Dio.github.nettyucx.tcpDataPath}: {@code auto} (default), {@code always} (also where UCX
 * has more than TCP; for tests), {@code never} (UCX's tcp transport, as before).
 */
public final class UcxDataPathPolicy {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxDataPathPolicy.class);

    /** This side can use the TCP data path. */
    public static final int FLAG_ACCEPTS = 1;
    /** UCX on this side has a shared-memory transport, for a peer on the same host. */
    public static final int FLAG_SHARED_MEMORY = 2;
    /** UCX on this side has a network transport other than TCP (InfiniBand, RoCE, ...). */
    public static final int FLAG_NETWORK = 4;
    /** This side wants the TCP data path even where UCX has more than TCP. */
    public static final int FLAG_INSISTS = 8;
    /** This side trusts the peer with UCX ({@link UcxTrust}): UCX needs this flag from both. */
    public static final int FLAG_TRUSTS = 16;
    /**
     * UCX on this side has its own tcp transport: only with {@code tcpDataPath=never}, since its listening ports
     * serve strangers (docs/security.md), and the TCP data path carries the same bytes otherwise.
     */
    public static final int FLAG_UCX_TCP = 32;

    /** The data path two hellos lead to. */
    public enum Choice {
        /** UCX tagged messages: the worker addresses follow the hellos. */
        UCX,
        /** The connection's TCP socket, as plain TCP. */
        TCP,
        /** None: the peers do not trust each other, and one of them refuses the TCP data path. */
        NONE
    }

    private static final String MODE = SystemPropertyUtil.get("io.github.nettyucx.tcpDataPath", "auto")
            .toLowerCase(Locale.ROOT);
    private static final Set<String> SHARED_MEMORY = Set.of("posix", "sysv", "xpmem");
    /** Transports that reach no other host: anything else UCX lists is a network other than TCP. */
    private static final Set<String> LOCAL = Set.of("self", "tcp", "posix", "sysv", "xpmem", "cma", "knem",
            "cuda_copy", "cuda_ipc", "gdr_copy", "rocm_copy", "rocm_ipc", "rocm_gdr");

    private static volatile int localFlags = -1;

    private UcxDataPathPolicy() {
    }

    /**
     * Whether this process's UCX should open its own tcp transport (and its listening ports): only where the TCP
     * data path is off, so that UCX's tcp transport is the only way to reach a peer without RDMA.
     */
    static boolean ucxTcpWanted() {
        return UcxContext.ucxTcpOpen();
    }

    /** What this side's hello says. */
    public static int localFlags() {
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
        if (UcxWorker.unavailabilityCause() != null) {
            return flags;
        }
        String transports;
        try {
            transports = UcxContext.transports();
        } catch (IOException e) {
            return flags;
        }
        for (String transport : transports.trim().split(" +")) {
            if (SHARED_MEMORY.contains(transport)) {
                flags |= FLAG_SHARED_MEMORY;
            } else if ("tcp".equals(transport)) {
                flags |= FLAG_UCX_TCP;
            } else if (!transport.isEmpty() && !LOCAL.contains(transport)) {
                flags |= FLAG_NETWORK;
            }
        }
        logger.debug("UCX transports:{}(TCP data path flags {})", transports, flags);
        return flags;
    }

    /**
     * The data path of a connection between ends whose hellos had these flags (ours with or without
     * {@link #FLAG_TRUSTS}): both ends decide alike. Peers that do not both trust each other never get UCX, nor do
     * peers whose UCX contexts share no transport that reaches across (then the TCP data path was off on one side).
     */
    public static Choice choose(int ours, int peerFlags, boolean sameHost) {
        boolean trusted = (ours & peerFlags & FLAG_TRUSTS) != 0;
        boolean streamAccepted = (ours & peerFlags & FLAG_ACCEPTS) != 0;
        if (!trusted) {
            return streamAccepted ? Choice.TCP : Choice.NONE;
        }
        if (streamChosen(ours, peerFlags, sameHost)) {
            return Choice.TCP;
        }
        return ucxReaches(ours, peerFlags, sameHost) ? Choice.UCX : Choice.NONE;
    }

    /** Whether the two sides' UCX contexts have a transport in common that reaches from one to the other. */
    static boolean ucxReaches(int ours, int peerFlags, boolean sameHost) {
        int both = ours & peerFlags;
        return sameHost && (both & FLAG_SHARED_MEMORY) != 0 || (both & (FLAG_NETWORK | FLAG_UCX_TCP)) != 0;
    }

    /** Whether a connection between ends whose hellos had these flags takes the TCP data path. */
    public static boolean streamChosen(int ours, int peerFlags, boolean sameHost) {
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
