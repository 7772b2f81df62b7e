/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Netty release an application runs, read from the {@code META-INF/io.netty.versions.properties} that every Netty
 * jar carries, and whether the agent supports it. Read from the jar's resources rather than from Netty's
 * {@code Version} class, so that the check touches no Netty class: on Netty 4.1 the transport's classes cannot even
 * load.
 */
final class NettyRelease {
    /** The oldest release the agent is tested with (Spark 4.x's); older 4.2 releases are refused, not guessed at. */
    static final int OLDEST_PATCH = 13;
    static final String SUPPORTED = "4.2.13 or a later 4.2 release";

    private static final String RESOURCE = "META-INF/io.netty.versions.properties";
    private static final String KEY = "netty-transport.version";
    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)(\\..*)?");

    /** The version as Netty writes it (4.2.17.Final), or {@code null} where no jar says. */
    final String version;
    private final int major;
    private final int minor;
    private final int patch;

    NettyRelease(String version) {
        this.version = version;
        Matcher m = version == null ? null : VERSION.matcher(version);
        if (m != null && m.matches()) {
            major = Integer.parseInt(m.group(1));
            minor = Integer.parseInt(m.group(2));
            patch = Integer.parseInt(m.group(3));
        } else {
            major = -1;
            minor = -1;
            patch = -1;
        }
    }

    /** The release of netty-transport as {@code loader} sees it. */
    static NettyRelease of(ClassLoader loader) {
        try {
            Enumeration<URL> urls = loader == null ? ClassLoader.getSystemResources(RESOURCE)
                    : loader.getResources(RESOURCE);
            while (urls.hasMoreElements()) {
                Properties p = new Properties();
                try (InputStream in = urls.nextElement().openStream()) {
                    p.load(in);
                }
                String v = p.getProperty(KEY);
                if (v != null) {
                    return new NettyRelease(v);
                }
            }
        } catch (IOException e) {
            // Unreadable is as good as absent: the caller falls back to what the classes offer.
        }
        return new NettyRelease(null);
    }

    boolean known() {
        return major >= 0;
    }

    /**
     * Why the agent must leave this release alone, or {@code null} if it is supported. An unknown release (a shaded
     * Netty that dropped the resource) is taken as supported when it has Netty 4.2's {@code IoHandlerFactory}: the
     * caller checks that.
     */
    String unsupportedReason() {
        if (!known()) {
            return null;
        }
        if (major == 4 && minor == 2 && patch >= OLDEST_PATCH) {
            return null;
        }
        if (major == 4 && minor < 2) {
            return "Netty " + version + " has no IoHandler API, on which the UCX transport is built; the agent"
                    + " supports " + SUPPORTED;
        }
        return "Netty " + version + " is not a release the agent supports (" + SUPPORTED + ")";
    }
}
