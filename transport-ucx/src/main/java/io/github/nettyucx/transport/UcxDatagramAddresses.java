/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxFd;
import io.github.nettyucx.jni.UcxNative;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * The addresses a {@link UcxDatagramChannel} passes to and gets from its natives, on its event loop only. Each
 * side remembers its last address: a peer that keeps talking (a DNS server, a client's replies) costs no new
 * {@link InetSocketAddress} per datagram received, nor a new byte[] per datagram sent.
 */
final class UcxDatagramAddresses {
    /** Where {@link UcxFd#datagramReceive} writes each sender. */
    private final byte[] sender = new byte[UcxNative.SENDER_BYTES];
    private final byte[] lastSender = new byte[UcxNative.SENDER_BYTES];
    private InetSocketAddress lastSenderAddress;

    private InetSocketAddress lastRecipient;
    private byte[] lastRecipientIp;
    private int lastRecipientScopeId;

    /** The array to hand to {@link UcxFd#datagramReceive}; {@link #sender()} reads it afterwards. */
    byte[] senderBuffer() {
        return sender;
    }

    /** The sender of the datagram just received. */
    InetSocketAddress sender() {
        if (lastSenderAddress != null && Arrays.equals(sender, lastSender)) {
            return lastSenderAddress;
        }
        int ipLength = sender[UcxNative.SENDER_IP_LENGTH];
        byte[] ip = Arrays.copyOfRange(sender, UcxNative.SENDER_IP, UcxNative.SENDER_IP + ipLength);
        int port = (sender[UcxNative.SENDER_PORT] & 0xFF) << 8 | sender[UcxNative.SENDER_PORT + 1] & 0xFF;
        int scopeId = 0;
        for (int i = 0; i < 4; i++) {
            scopeId = scopeId << 8 | sender[UcxNative.SENDER_SCOPE_ID + i] & 0xFF;
        }
        InetAddress address;
        try {
            // A scope id only for link-local addresses, which have one: others would print as "::1%0".
            address = scopeId != 0 ? Inet6Address.getByAddress(null, ip, scopeId) : InetAddress.getByAddress(ip);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("the native library returned an address of " + ipLength + " bytes", e);
        }
        System.arraycopy(sender, 0, lastSender, 0, sender.length);
        lastSenderAddress = new InetSocketAddress(address, port);
        return lastSenderAddress;
    }

    /** The ip bytes of a (resolved) recipient, as {@link UcxFd#datagramSendTo} takes them. */
    byte[] ip(InetSocketAddress recipient) {
        remember(recipient);
        return lastRecipientIp;
    }

    /** The IPv6 scope id of the recipient last passed to {@link #ip}, 0 when it has none. */
    int scopeId() {
        return lastRecipientScopeId;
    }

    private void remember(InetSocketAddress recipient) {
        if (recipient == lastRecipient) {
            return;
        }
        InetAddress address = recipient.getAddress();
        // Inet6Address.equals ignores the scope id, which tells link-local addresses of two interfaces apart.
        int scopeId = address instanceof Inet6Address ? ((Inet6Address) address).getScopeId() : 0;
        if (!recipient.equals(lastRecipient) || scopeId != lastRecipientScopeId) {
            lastRecipientIp = address.getAddress();
            lastRecipientScopeId = scopeId;
        }
        lastRecipient = recipient;
    }
}
