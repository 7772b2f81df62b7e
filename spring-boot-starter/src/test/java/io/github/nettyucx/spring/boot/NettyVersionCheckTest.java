/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.netty.util.Version;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The start-up comparison of the class path's Netty with the Netty the transport was built with. */
class NettyVersionCheckTest {
    /**
     * The transport's jar (or classes) records the Netty it was built with, and this build tests with that Netty: a
     * build whose resource filtering broke, or a test class path with another Netty, fails here.
     */
    @Test
    void theTransportKnowsItsNetty() {
        String builtWith = NettyVersionCheck.builtWith();
        assertNotNull(builtWith, NettyVersionCheck.BUILD_RESOURCE + " is missing or unfiltered");
        assertEquals(Version.identify().get("netty-common").artifactVersion(), builtWith);
        assertEquals(builtWith, NettyVersionCheck.onClassPath().get("netty-transport"));
        assertNull(NettyVersionCheck.mismatch(builtWith, NettyVersionCheck.oldestSupported(),
                NettyVersionCheck.newestTested(), NettyVersionCheck.onClassPath()));
    }

    /** The starter's jar names the supported range, and the build's own Netty lies within it. */
    @Test
    void theStarterKnowsTheSupportedRange() {
        String oldest = NettyVersionCheck.oldestSupported();
        String newest = NettyVersionCheck.newestTested();
        assertNotNull(oldest, NettyVersionCheck.RANGE_RESOURCE + " is missing or unfiltered");
        assertNotNull(newest, NettyVersionCheck.RANGE_RESOURCE + " is missing or unfiltered");
        assertTrue(NettyVersionCheck.compare(oldest, NettyVersionCheck.builtWith()) <= 0, oldest);
        assertTrue(NettyVersionCheck.compare(NettyVersionCheck.builtWith(), newest) <= 0, newest);
    }

    @Test
    void olderThanTheOldestSupportedIsReported() {
        String warning = NettyVersionCheck.mismatch("4.2.17.Final", "4.2.13.Final", "4.2.20.Final",
                Map.of("netty-common", "4.2.9.Final", "netty-transport", "4.2.13.Final"));
        assertNotNull(warning);
        assertTrue(warning.contains("needs Netty 4.2.13.Final or a later 4.2.x (tested: 4.2.13.Final to "
                + "4.2.20.Final)"), warning);
        assertTrue(warning.contains("netty-common 4.2.9.Final"), warning);
        assertTrue(!warning.contains("netty-transport"), "netty-transport is supported: " + warning);
        assertNull(NettyVersionCheck.mismatch("4.2.17.Final", "4.2.13.Final", "4.2.20.Final",
                Map.of("netty-common", "4.2.15.Final", "netty-transport", "4.2.25.Final")));
    }

    @Test
    void versionsCompareByNumber() {
        assertTrue(NettyVersionCheck.compare("4.2.9.Final", "4.2.13.Final") < 0);
        assertTrue(NettyVersionCheck.compare("4.2.20.Final", "4.2.13.Final") > 0);
        assertEquals(0, NettyVersionCheck.compare("4.2.13.Final", "4.2.13"));
    }

    @Test
    void patchReleasesOfTheLineAreFine() {
        assertNull(NettyVersionCheck.mismatch("4.2.17.Final", null, null, Map.of("netty-common",
                "4.2.3.Final", "netty-buffer", "4.2.3.Final", "netty-transport", "4.2.30.Final")));
    }

    @Test
    void anotherLineIsReportedWithTheFix() {
        String warning = NettyVersionCheck.mismatch("4.2.17.Final", null, null, Map.of("netty-common",
                "4.1.118.Final", "netty-buffer", "4.1.118.Final", "netty-transport", "4.2.17.Final"));
        assertNotNull(warning);
        assertTrue(warning.contains("built with Netty 4.2.17.Final and needs Netty 4.2.x"), warning);
        assertTrue(warning.contains("netty-common 4.1.118.Final, netty-buffer 4.1.118.Final"), warning);
        assertTrue(!warning.contains("netty-transport"), "netty-transport is of the right line: " + warning);
        assertTrue(warning.contains("netty.version"), warning);
        assertNotNull(NettyVersionCheck.mismatch("4.2.17.Final", null, null,
                Map.of("netty-transport", "5.0.0.Alpha2")));
    }

    /** Netty jars with versions of their own, and artifacts the transport does not link against, are not compared. */
    @Test
    void otherArtifactsAreIgnored() {
        assertNull(NettyVersionCheck.mismatch("4.2.17.Final", null, null,
                Map.of("netty-tcnative-classes", "2.0.70.Final", "netty-codec-http", "4.1.118.Final")));
        assertNull(NettyVersionCheck.mismatch("4.2.17.Final", null, null, Map.of()));
    }

    @Test
    void releaseLines() {
        assertEquals("4.2", NettyVersionCheck.releaseLine("4.2.17.Final"));
        assertEquals("4.1", NettyVersionCheck.releaseLine("4.1.0.CR1"));
        assertEquals("4.2", NettyVersionCheck.releaseLine("4.2"));
        assertEquals("5", NettyVersionCheck.releaseLine("5"));
    }
}
