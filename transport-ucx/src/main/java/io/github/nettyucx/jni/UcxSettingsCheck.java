/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses UCX settings from the environment that UCX accepts but mishandles, so that they stop the
 * transport with an explanation instead of corrupting or stalling its connections.
 * <p>
 * A shared-memory segment over 65,535 bytes ({@code UCX_SYSV_SEG_SIZE}, {@code UCX_POSIX_SEG_SIZE}, or
 * {@code UCX_MM_SEG_SIZE} for both): UCX's shared-memory queue records each message's length in 16
 * bits while the segment size bounds the message, so longer messages arrive with wrong lengths. With
 * 66,000 a benchmark at 64 KiB stalled for good.
 * <p>
 * Also names the settings that reopen what the transport closes by default (docs/security.md): UCX's tcp
 * transport, whose listening ports lead anyone who reaches the host into UCX's wire-up, and System V segments,
 * which UCX creates open to the user's group. They are kept, with a warning.
 */
public final class UcxSettingsCheck {
    public static final long MAX_SHARED_MEMORY_SEGMENT = 65_535;
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmg]?)b?", Pattern.CASE_INSENSITIVE);

    private UcxSettingsCheck() {
    }

    /** Why the UCX settings in {@code env} cannot be used, or null when they can. */
    public static String problem(Map<String, String> env) {
        for (String transport : new String[] {"SYSV", "POSIX"}) {
            String name = "UCX_" + transport + "_SEG_SIZE";
            String value = env.get(name);
            if (value == null) {
                name = "UCX_MM_SEG_SIZE";
                value = env.get(name);
            }
            long bytes = value == null ? -1 : bytes(value);
            if (bytes > MAX_SHARED_MEMORY_SEGMENT) {
                return name + "=" + value + " is over " + MAX_SHARED_MEMORY_SEGMENT + " bytes: UCX's shared-memory "
                        + "queue keeps message lengths in 16 bits and would deliver longer messages corrupted; "
                        + "unset it or set at most " + MAX_SHARED_MEMORY_SEGMENT;
            }
        }
        return null;
    }

    /**
     * Warnings for UCX settings in {@code env} that open what the transport keeps closed; {@code ucxTcpWanted}: the
     * TCP data path is off, so UCX's tcp transport is on by design (a warning still says what it exposes).
     */
    public static List<String> exposures(Map<String, String> env, boolean ucxTcpWanted) {
        List<String> warnings = new ArrayList<>();
        String tls = env.get("UCX_TLS");
        if (tls == null ? ucxTcpWanted : enables(tls, "tcp")) {
            warnings.add((tls == null ? "-Dio.github.nettyucx.tcpDataPath=never opens" : "UCX_TLS=" + tls + " opens")
                    + " UCX's tcp transport: it listens on ports of its own on every interface of UCX_NET_DEVICES, "
                    + "where anyone who reaches the host meets UCX's wire-up without netty-ucx's trust rules. "
                    + (ucxTcpWanted ? "Set UCX_NET_DEVICES to the interfaces of your peers and firewall "
                    + "UCX_TCP_PORT_RANGE" : "Unset UCX_TLS, or exclude tcp (UCX_TLS=^tcp,sysv)")
                    + " (docs/security.md#ucxs-own-ports-and-segments)");
        }
        if (tls != null && enables(tls, "sysv")) {
            warnings.add("UCX_TLS=" + tls + " enables UCX's sysv transport, whose segments are open to every member of "
                    + "the user's group (mode 0660): unset UCX_TLS, or exclude sysv (docs/security.md#files-and-shared-"
                    + "memory)");
        }
        return warnings;
    }

    /**
     * Whether a UCX_TLS value lets UCX use {@code transport} ({@code tcp} or {@code sysv}): a list names it, an alias
     * that covers it ({@code all}, {@code sm} and {@code shm} and {@code mm} for sysv), or an exclusion
     * ({@code ^...}) leaves it out.
     */
    public static boolean enables(String tls, String transport) {
        String value = tls.trim().toLowerCase(Locale.ROOT);
        boolean exclusion = value.startsWith("^");
        Set<String> names = new HashSet<>(Arrays.asList((exclusion ? value.substring(1) : value).split("\\s*,\\s*")));
        Set<String> covering = new HashSet<>(Arrays.asList(transport, "all"));
        if ("sysv".equals(transport)) {
            covering.addAll(Arrays.asList("sm", "shm", "mm"));
        }
        names.retainAll(covering);
        return exclusion ? names.isEmpty() : !names.isEmpty();
    }

    /** A UCX memory size ({@code 8256}, {@code 64k}, {@code 1MB}) in bytes, or -1 if it is not one. */
    public static long bytes(String value) {
        Matcher m = SIZE.matcher(value.trim());
        if (!m.matches()) {
            return -1;
        }
        try {
            long n = Long.parseLong(m.group(1));
            switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "k":
                    return Math.multiplyExact(n, 1L << 10);
                case "m":
                    return Math.multiplyExact(n, 1L << 20);
                case "g":
                    return Math.multiplyExact(n, 1L << 30);
                default:
                    return n;
            }
        } catch (ArithmeticException | NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
