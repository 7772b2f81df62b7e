/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxKernelOption;
import io.netty.channel.ChannelOption;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The option table of socket channels: what the configuration reports, checks, and hands to a plain socket. */
class UcxSocketOptionsTest {
    @Test
    void everyDeclaredOptionIsReportedWithItsDefault() {
        UcxSocketChannelConfig config = new UcxSocketChannel().config();
        Map<ChannelOption<?>, Object> reported = config.getOptions();
        for (UcxOption<?> option : UcxSocketOptions.TABLE.all()) {
            assertTrue(reported.containsKey(option.option), option + " not reported");
            assertEquals(option.defaultValue(), reported.get(option.option), option + "'s default");
        }
        assertTrue(reported.containsKey(ChannelOption.AUTO_READ), "Netty's own options are reported too");
    }

    @Test
    void typedSettersAndGenericOptionsSeeOneValue() {
        UcxSocketChannelConfig config = new UcxSocketChannel().config();
        config.setTrafficClass(0x10);
        assertEquals(0x10, config.getOption(ChannelOption.IP_TOS));
        assertTrue(config.setOption(ChannelOption.SO_LINGER, 0));
        assertEquals(0, config.getSoLinger());
        assertTrue(config.setOption(UcxChannelOption.UCX_RECV_WINDOW, 32));
        assertEquals(32, config.recvWindow());
        config.setKeepAlive(false);
        assertFalse(config.getOption(ChannelOption.SO_KEEPALIVE));
    }

    @Test
    void valuesOutOfRangeAreRefusedByName() {
        UcxSocketChannelConfig config = new UcxSocketChannel().config();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> config.setOption(UcxChannelOption.UCX_RECV_WINDOW, 0));
        assertTrue(refused.getMessage().contains("UCX_RECV_WINDOW"), refused.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> config.setOption(UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS, -1));
        assertThrows(NullPointerException.class, () -> config.setOption(UcxChannelOption.TRUST, null));
        assertEquals(UcxSocketOptions.DEFAULT_RECV_WINDOW, config.recvWindow(), "a refused value is not kept");
    }

    /** A descriptor whose kernel name the native table lacks would fail here, not in an application. */
    @Test
    void everyKernelNameResolvesOnBothFamilies() throws IOException {
        Ucx.ensureAvailability();
        for (boolean ipv6 : new boolean[] {false, true}) {
            int fd;
            try {
                fd = UcxNative.socketStream(ipv6);
            } catch (IOException noFamily) {
                continue; // A host without IPv6 has no IPv6 names to check.
            }
            try {
                for (UcxOption<?> option : UcxSocketOptions.TABLE.all()) {
                    if (option.kernel() != null) {
                        option.kernel().get(fd, ipv6);
                    }
                }
            } finally {
                UcxNative.socketClose(fd);
            }
        }
    }

    @Test
    void aPlainSocketTakesOnlyWhatTheApplicationChose() throws IOException {
        Ucx.ensureAvailability();
        UcxSocketChannelConfig config = new UcxSocketChannel().config();
        config.setTrafficClass(0x20);
        config.setKeepAlive(false);
        int fd = UcxNative.socketStream(false);
        try {
            UcxKernelOption sendBuffer = UcxSocketOptions.SO_SNDBUF.kernel();
            int kernelsSendBuffer = sendBuffer.get(fd, false);
            config.plainSocket().attach(fd, false, config);
            assertEquals(0x20, UcxSocketOptions.IP_TOS.kernel().get(fd, false));
            assertEquals(0, UcxSocketOptions.SO_KEEPALIVE.kernel().get(fd, false));
            assertEquals(kernelsSendBuffer, sendBuffer.get(fd, false), "the kernel's size stays when none was set");
            assertEquals(1, UcxSocketOptions.TCP_NODELAY.kernel().get(fd, false), "the socket's own no-delay stays");
            assertEquals(kernelsSendBuffer, config.getSendBufferSize(), "read from the socket once it is plain");
            config.setTrafficClass(0x40);
            assertEquals(0x40, UcxSocketOptions.IP_TOS.kernel().get(fd, false), "set on the socket while plain");
            config.plainSocket().detach();
            assertEquals(0x40, config.getTrafficClass());
        } finally {
            UcxNative.socketClose(fd);
        }
    }
}
