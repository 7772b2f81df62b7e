/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Arrays;

/**
 * Conversions between {@link InetSocketAddress} and the byte form the socket natives use:
 * ip (4 or 16 bytes), then the port as 4 big-endian bytes.
 */
final class SocketAddresses {
    /** The byte form's length for an IPv6 socket (IPv4-mapped peers included): 16 bytes of ip, 4 of port. */
    static final int IPV6_ENCODED_BYTES = 16 + 4;

    private SocketAddresses() {
    }

    static InetSocketAddress checkInet(SocketAddress address) {
        if (!(address instanceof InetSocketAddress)) {
            throw new UnsupportedAddressTypeException();
        }
        InetSocketAddress inet = (InetSocketAddress) address;
        if (inet.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        return inet;
    }

    static byte[] ip(InetSocketAddress address) {
        return address.getAddress().getAddress();
    }

    static InetSocketAddress decode(byte[] encoded) {
        if (encoded == null) {
            return null;
        }
        int ipLength = encoded.length - 4;
        int port = ((encoded[ipLength + 2] & 0xFF) << 8) | (encoded[ipLength + 3] & 0xFF);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(Arrays.copyOf(encoded, ipLength)), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad address length " + ipLength, e);
        }
    }
}
