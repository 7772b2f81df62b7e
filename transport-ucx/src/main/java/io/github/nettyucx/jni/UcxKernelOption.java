/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import java.io.IOException;

/**
 * A socket option as the kernel knows it: a level and a number, looked up by the option's C name in the native
 * library's table ({@code NUCX_SOCKET_OPTIONS} in ucx_constants.c) the first time it is used. An IP-level option
 * has a second name for IPv6 sockets ({@code IP_TOS} and {@code IPV6_TCLASS}); the others have one for both.
 */
public final class UcxKernelOption {
    private final String ipv4Name;
    private final String ipv6Name;
    /** Level and number, packed as {@link UcxNativeConstants#socketOption} returns them; 0 until looked up. */
    private volatile long ipv4;
    private volatile long ipv6;

    private UcxKernelOption(String ipv4Name, String ipv6Name) {
        this.ipv4Name = ipv4Name;
        this.ipv6Name = ipv6Name;
    }

    /** An option with one name for both address families ({@code SOL_SOCKET} and {@code IPPROTO_TCP} ones). */
    public static UcxKernelOption named(String name) {
        return new UcxKernelOption(name, name);
    }

    /** An IP-level option: {@code ipv4Name} on IPv4 sockets, {@code ipv6Name} on IPv6 ones. */
    public static UcxKernelOption named(String ipv4Name, String ipv6Name) {
        return new UcxKernelOption(ipv4Name, ipv6Name);
    }

    /** Whether IPv4 and IPv6 sockets name this option differently. */
    public boolean perFamily() {
        return !ipv4Name.equals(ipv6Name);
    }

    public void set(int fd, boolean onIpv6, int value) throws IOException {
        long packed = resolve(onIpv6);
        UcxNative.socketSetOption(fd, (int) (packed >>> 32), (int) packed, value);
    }

    public int get(int fd, boolean onIpv6) throws IOException {
        long packed = resolve(onIpv6);
        return UcxNative.socketGetOption(fd, (int) (packed >>> 32), (int) packed);
    }

    private long resolve(boolean onIpv6) {
        long packed = onIpv6 ? ipv6 : ipv4;
        if (packed != 0) {
            return packed;
        }
        String name = onIpv6 ? ipv6Name : ipv4Name;
        UcxNative.ensureLoaded();
        packed = UcxNativeConstants.socketOption(name);
        if (packed == -1) {
            throw new IllegalStateException("the native library has no socket option " + name
                    + ": add it to NUCX_SOCKET_OPTIONS in ucx_constants.c");
        }
        if (onIpv6) {
            ipv6 = packed;
        } else {
            ipv4 = packed;
        }
        return packed;
    }

    @Override
    public String toString() {
        return perFamily() ? ipv4Name + "/" + ipv6Name : ipv4Name;
    }
}
