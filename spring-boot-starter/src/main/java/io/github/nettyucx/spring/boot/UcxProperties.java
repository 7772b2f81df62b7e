/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.loop.WaitStrategy;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The starter's settings, {@code netty.ucx.*}. Each one left unset keeps the transport's own default, which is also
 * where a JVM system property {@code -Dio.github.nettyucx.*} still applies; docs/settings.md has the table that maps
 * each property to its system property or channel option. The event loop settings apply to the loops of the
 * starter's {@code ReactorResourceFactory}; the connection settings to WebFlux's server connections and to the client
 * connections made on those loops (the {@code WebClient}s of Boot's {@code WebClient.Builder}).
 */
@ConfigurationProperties(prefix = "netty.ucx")
public class UcxProperties {
    /**
     * Whether Reactor Netty runs on the UCX transport: WebFlux's server and the WebClients built from Boot's
     * WebClient.Builder get a ReactorResourceFactory whose loops and channels are UcxLoopResources. Clients still
     * reach servers that do not speak netty-ucx, as plain TCP.
     */
    private boolean enabled = false;

    /**
     * How an idle event loop waits: adaptive (spins for a time it learns, up to the spin, then sleeps),
     * spin-then-sleep (spins for the whole spin), sleep, or busy-poll (never sleeps, a core per loop). Unset: the
     * transport's default, adaptive unless -Dio.github.nettyucx.waitStrategy says otherwise.
     */
    private WaitStrategy waitStrategy;

    /**
     * How long an idle event loop spins before it sleeps: the spin of spin-then-sleep and the longest of adaptive.
     * Without a unit, microseconds. Unset: the transport's default, unless -Dio.github.nettyucx.spinMicros says
     * otherwise.
     */
    @DurationUnit(ChronoUnit.MICROS)
    private Duration spin;

    /**
     * The most connections one event loop takes; one more fails to connect. Unset: the transport's default, unless
     * -Dio.github.nettyucx.maxConnectionsPerLoop says otherwise.
     */
    private Integer maxConnectionsPerLoop;

    /**
     * Receive slots each connection posts: how many messages its peer may have in flight (the channel option
     * UCX_RECV_WINDOW).
     */
    private Integer receiveWindow;

    /**
     * Bytes one receive slot holds, the largest message the peer sends (the channel option UCX_RECV_UNIT). Without
     * a unit, bytes.
     */
    private DataSize receiveUnit;

    /** Send slots per connection: how many of its messages may be in flight (the channel option UCX_SEND_SLOTS). */
    private Integer sendSlots;

    /**
     * Whether a large received message goes up the pipeline in the registered buffer it arrived in (true) or is
     * copied into a buffer of the channel's allocator (false).
     */
    private Boolean receiveInPlace;

    /**
     * Which peers get UCX, the rest the TCP data path: same-user, secret-file:PATH, secret:KEY (hex or base64),
     * networks:CIDR;CIDR, any or none, several allowed. Unset: the process's rules, same-user unless
     * -Dio.github.nettyucx.trust says otherwise.
     */
    private List<String> trust = new ArrayList<>();

    /**
     * Whether a client connection falls back to plain TCP when its server does not speak netty-ucx, so that WebClients
     * reach any HTTP server.
     */
    private boolean plainTcpFallback = true;

    /**
     * For the server: how long an accepted connection waits for its client's first bytes before it takes a silent
     * client for plain TCP; zero waits for the bytes. Without a unit, milliseconds.
     */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration clientBytesWait;

    /**
     * For the server: how long an accepted connection has to finish its netty-ucx handshake before it is closed;
     * positive. Without a unit, milliseconds.
     */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration handshakeTimeout;

    /** For the server: how many accepted connections may be in their handshake at once. */
    private Integer maxPendingHandshakes;

    /** For the server: how many accepted connections from one IP address may be in their handshake at once. */
    private Integer maxPendingHandshakesPerAddress;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public WaitStrategy getWaitStrategy() {
        return waitStrategy;
    }

    public void setWaitStrategy(WaitStrategy waitStrategy) {
        this.waitStrategy = waitStrategy;
    }

    public Duration getSpin() {
        return spin;
    }

    public void setSpin(Duration spin) {
        this.spin = spin;
    }

    public Integer getMaxConnectionsPerLoop() {
        return maxConnectionsPerLoop;
    }

    public void setMaxConnectionsPerLoop(Integer maxConnectionsPerLoop) {
        this.maxConnectionsPerLoop = maxConnectionsPerLoop;
    }

    public Integer getReceiveWindow() {
        return receiveWindow;
    }

    public void setReceiveWindow(Integer receiveWindow) {
        this.receiveWindow = receiveWindow;
    }

    public DataSize getReceiveUnit() {
        return receiveUnit;
    }

    public void setReceiveUnit(DataSize receiveUnit) {
        this.receiveUnit = receiveUnit;
    }

    public Integer getSendSlots() {
        return sendSlots;
    }

    public void setSendSlots(Integer sendSlots) {
        this.sendSlots = sendSlots;
    }

    public Boolean getReceiveInPlace() {
        return receiveInPlace;
    }

    public void setReceiveInPlace(Boolean receiveInPlace) {
        this.receiveInPlace = receiveInPlace;
    }

    public List<String> getTrust() {
        return trust;
    }

    public void setTrust(List<String> trust) {
        this.trust = trust;
    }

    public boolean isPlainTcpFallback() {
        return plainTcpFallback;
    }

    public void setPlainTcpFallback(boolean plainTcpFallback) {
        this.plainTcpFallback = plainTcpFallback;
    }

    public Duration getHandshakeTimeout() {
        return handshakeTimeout;
    }

    public void setHandshakeTimeout(Duration handshakeTimeout) {
        this.handshakeTimeout = handshakeTimeout;
    }

    public Duration getClientBytesWait() {
        return clientBytesWait;
    }

    public void setClientBytesWait(Duration clientBytesWait) {
        this.clientBytesWait = clientBytesWait;
    }

    public Integer getMaxPendingHandshakes() {
        return maxPendingHandshakes;
    }

    public void setMaxPendingHandshakes(Integer maxPendingHandshakes) {
        this.maxPendingHandshakes = maxPendingHandshakes;
    }

    public Integer getMaxPendingHandshakesPerAddress() {
        return maxPendingHandshakesPerAddress;
    }

    public void setMaxPendingHandshakesPerAddress(Integer maxPendingHandshakesPerAddress) {
        this.maxPendingHandshakesPerAddress = maxPendingHandshakesPerAddress;
    }
}
