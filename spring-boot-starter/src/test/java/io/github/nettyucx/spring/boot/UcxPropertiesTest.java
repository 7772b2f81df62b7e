/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.loop.UcxIoHandlerConfig;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.loop.WaitStrategy;
import io.netty.channel.ChannelOption;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code netty.ucx.*} bound to {@link UcxProperties}, in Spring's relaxed forms, and turned into the transport's
 * settings by {@link UcxSettings}; values the transport refuses fail the start and name their property. Needs no UCX:
 * nothing here makes a loop or a channel.
 */
class UcxPropertiesTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Bind.class);

    @Test
    void everySettingBinds() {
        runner.withPropertyValues("netty.ucx.enabled=true", "netty.ucx.wait-strategy=spin-then-sleep",
                "netty.ucx.spin=20us", "netty.ucx.max-connections-per-loop=5000", "netty.ucx.receive-window=4",
                "netty.ucx.receive-unit=32KB", "netty.ucx.send-slots=6", "netty.ucx.receive-in-place=false",
                "netty.ucx.trust=same-user,networks:10.0.0.0/8", "netty.ucx.plain-tcp-fallback=false",
                "netty.ucx.client-bytes-wait=150ms", "netty.ucx.max-pending-handshakes=100",
                "netty.ucx.max-pending-handshakes-per-address=50", "netty.ucx.handshake-timeout=5s").run(context -> {
                    assertNull(context.getStartupFailure());
                    UcxProperties p = context.getBean(UcxProperties.class);
                    assertTrue(p.isEnabled());
                    assertEquals(WaitStrategy.SPIN_THEN_SLEEP, p.getWaitStrategy());
                    assertEquals(Duration.ofNanos(20_000), p.getSpin());
                    assertEquals(5000, p.getMaxConnectionsPerLoop());
                    assertEquals(4, p.getReceiveWindow());
                    assertEquals(DataSize.ofKilobytes(32), p.getReceiveUnit());
                    assertEquals(6, p.getSendSlots());
                    assertEquals(Boolean.FALSE, p.getReceiveInPlace());
                    assertEquals(List.of("same-user", "networks:10.0.0.0/8"), p.getTrust());
                    assertFalse(p.isPlainTcpFallback());
                    assertEquals(Duration.ofMillis(150), p.getClientBytesWait());
                    assertEquals(100, p.getMaxPendingHandshakes());
                    assertEquals(50, p.getMaxPendingHandshakesPerAddress());
                    assertEquals(Duration.ofSeconds(5), p.getHandshakeTimeout());
                });
    }

    /** Camel case and upper-case enum values, and numbers without a unit in the unit each property says. */
    @Test
    void relaxedNamesAndDefaultUnits() {
        runner.withPropertyValues("netty.ucx.waitStrategy=BUSY_POLL", "netty.ucx.spin=7", "netty.ucx.receiveUnit=4096",
                "netty.ucx.client-bytes-wait=0").run(context -> {
                    UcxProperties p = context.getBean(UcxProperties.class);
                    assertEquals(WaitStrategy.BUSY_POLL, p.getWaitStrategy());
                    assertEquals(Duration.ofNanos(7_000), p.getSpin(), "microseconds without a unit");
                    assertEquals(DataSize.ofBytes(4096), p.getReceiveUnit(), "bytes without a unit");
                    assertEquals(Duration.ZERO, p.getClientBytesWait());
                });
    }

    @Test
    void unsetSettingsKeepTheTransportsDefaults() {
        runner.run(context -> {
            UcxProperties p = context.getBean(UcxProperties.class);
            assertFalse(p.isEnabled());
            assertTrue(p.isPlainTcpFallback(), "clients reach servers that do not speak netty-ucx");
            UcxSettings settings = new UcxSettings(p);
            UcxIoHandlerConfig defaults = new UcxIoHandlerConfig();
            assertEquals(defaults.toString(), settings.ioHandlerConfig().toString());
            assertEquals(Map.of(UcxChannelOption.PLAIN_TCP_FALLBACK, true), settings.clientOptions());
            assertTrue(settings.childOptions().isEmpty(), settings.childOptions().toString());
            assertTrue(settings.serverOptions().isEmpty(), settings.serverOptions().toString());
        });
    }

    @Test
    void settingsBecomeTheTransportsOptions() throws Exception {
        UcxProperties p = new UcxProperties();
        p.setSpin(Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(20)));
        p.setMaxConnectionsPerLoop(5000);
        p.setReceiveWindow(4);
        p.setReceiveUnit(DataSize.ofKilobytes(32));
        p.setSendSlots(6);
        p.setReceiveInPlace(false);
        p.setTrust(List.of("same-user", "networks:10.0.0.0/8"));
        p.setClientBytesWait(Duration.ofMillis(150));
        p.setMaxPendingHandshakes(100);
        p.setMaxPendingHandshakesPerAddress(50);
        p.setHandshakeTimeout(Duration.ofSeconds(5));
        UcxSettings settings = new UcxSettings(p);

        UcxIoHandlerConfig config = settings.ioHandlerConfig();
        assertEquals(new UcxIoHandlerConfig().waitStrategy(), config.waitStrategy(), "the strategy was not set");
        assertEquals(TimeUnit.MICROSECONDS.toNanos(20), config.spinNanos());
        assertEquals(5000, config.maxConnectionsPerLoop());

        Map<ChannelOption<?>, Object> client = settings.clientOptions();
        assertEquals(4, client.get(UcxChannelOption.UCX_RECV_WINDOW));
        assertEquals(32 * 1024, client.get(UcxChannelOption.UCX_RECV_UNIT));
        assertEquals(6, client.get(UcxChannelOption.UCX_SEND_SLOTS));
        assertEquals(false, client.get(UcxChannelOption.RECEIVE_IN_PLACE));
        assertEquals(UcxTrust.parse("same-user,networks:10.0.0.0/8").toString(),
                client.get(UcxChannelOption.TRUST).toString());
        assertNull(client.get(UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS), "a server's setting");

        Map<ChannelOption<?>, Object> child = settings.childOptions();
        assertEquals(4, child.get(UcxChannelOption.UCX_RECV_WINDOW));
        assertEquals(150, child.get(UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS));
        assertEquals(5000, child.get(UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS));
        assertNull(child.get(UcxChannelOption.PLAIN_TCP_FALLBACK), "a client's setting");
        assertNotNull(child.get(UcxChannelOption.TRUST));

        assertEquals(Map.of(UcxChannelOption.MAX_PENDING_HANDSHAKES, 100,
                UcxChannelOption.MAX_PENDING_HANDSHAKES_PER_ADDRESS, 50), settings.serverOptions());
    }

    @Test
    void refusedValuesFailTheStartNamingTheProperty() {
        assertRefused("netty.ucx.spin=-5us", "netty.ucx.spin");
        assertRefused("netty.ucx.max-connections-per-loop=0", "netty.ucx.max-connections-per-loop");
        assertRefused("netty.ucx.trust=friends", "netty.ucx.trust");
        assertRefused("netty.ucx.receive-unit=4GB", "netty.ucx.receive-unit");
        assertRefused("netty.ucx.client-bytes-wait=-1ms", "netty.ucx.client-bytes-wait");
        assertRefused("netty.ucx.handshake-timeout=0", "netty.ucx.handshake-timeout");
    }

    /** The starter's context with {@code property} does not start, and the reason names the property. */
    private static void assertRefused(String property, String name) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(UcxReactorNettyAutoConfiguration.class))
                .withPropertyValues("netty.ucx.enabled=true", property).run(context -> {
                    Throwable failure = context.getStartupFailure();
                    assertNotNull(failure, property + " was accepted");
                    Throwable cause = failure;
                    while (cause != null && !(cause instanceof IllegalArgumentException
                            && cause.getMessage().startsWith(name))) {
                        cause = cause.getCause();
                    }
                    assertNotNull(cause, () -> "the failure does not name " + name + ": " + failure);
                });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(UcxProperties.class)
    static class Bind {
    }
}
