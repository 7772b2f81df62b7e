/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NettyReleaseTest {
    @Test
    void theOldestTestedAndLater42ReleasesAreSupported() {
        assertNull(new NettyRelease("4.2.13.Final").unsupportedReason());
        assertNull(new NettyRelease("4.2.17.Final").unsupportedReason());
        assertNull(new NettyRelease("4.2.20.Final").unsupportedReason());
    }

    @Test
    void olderAndOtherLinesAreRefusedWithTheReason() {
        assertTrue(new NettyRelease("4.1.138.Final").unsupportedReason().contains("no IoHandler API"));
        assertTrue(new NettyRelease("4.2.12.Final").unsupportedReason().contains("4.2.13 or a later 4.2 release"));
        assertTrue(new NettyRelease("5.0.0.Alpha5").unsupportedReason().contains("not a release the agent supports"));
    }

    @Test
    void anUnknownReleaseIsLeftToTheClassCheck() {
        NettyRelease unknown = new NettyRelease(null);
        assertFalse(unknown.known());
        assertNull(unknown.unsupportedReason());
        assertFalse(new NettyRelease("snapshot").known());
    }

    @Test
    void theReleaseIsReadFromTheJarsOfAClassLoader() {
        // The tests' own class path has the reactor's Netty.
        assertEquals(System.getProperty("agent.newestNetty"),
                NettyRelease.of(NettyReleaseTest.class.getClassLoader()).version);
    }
}
