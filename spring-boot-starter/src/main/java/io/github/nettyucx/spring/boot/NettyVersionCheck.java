/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.transport.Ucx;
import io.netty.util.Version;
import io.netty.util.internal.logging.InternalLogger;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Compares the Netty on the class path with the Netty the transport was built with. Spring Boot's dependency
 * management pins a Netty of its own, which an application can end up with instead of the one netty-ucx needs; the
 * transport then fails later with linkage errors far from the cause. A different major or minor release is logged as
 * a warning at start-up, as Spring Boot itself warns about mismatched versions rather than refusing to start: patch
 * releases of one minor line are compatible.
 */
final class NettyVersionCheck {
    /** Written into the transport's jar by its build, with the Netty version it was compiled and tested against. */
    static final String BUILD_RESOURCE = "/META-INF/io.github.nettyucx/netty-ucx-transport.properties";
    /** The Netty jars the transport itself links against: other Netty jars (tcnative) have versions of their own. */
    static final List<String> ARTIFACTS = List.of("netty-common", "netty-buffer", "netty-transport");

    private NettyVersionCheck() {
    }

    /** Logs a warning when the class path's Netty is not of the release line the transport was built with. */
    static void warnOnMismatch(InternalLogger logger) {
        String builtWith = builtWith();
        if (builtWith == null) {
            logger.debug("netty-ucx: {} not found; the Netty version is not checked", BUILD_RESOURCE);
            return;
        }
        String warning = mismatch(builtWith, onClassPath());
        if (warning != null) {
            logger.warn(warning);
        }
    }

    /** The Netty version the transport on the class path was built with, or null when its jar does not say. */
    static String builtWith() {
        try (InputStream in = Ucx.class.getResourceAsStream(BUILD_RESOURCE)) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("netty.version");
            return version == null || version.isBlank() || version.startsWith("${") ? null : version.strip();
        } catch (IOException e) {
            return null;
        }
    }

    /** The version of each Netty artifact on the class path that says its version, by artifact id. */
    static Map<String, String> onClassPath() {
        Map<String, String> versions = new LinkedHashMap<>();
        for (Map.Entry<String, Version> e : Version.identify(Ucx.class.getClassLoader()).entrySet()) {
            versions.put(e.getKey(), e.getValue().artifactVersion());
        }
        return versions;
    }

    /**
     * The warning for {@code onClassPath} (artifact id to version), or null when each of {@link #ARTIFACTS} found
     * there has the major and minor release of {@code builtWith}.
     */
    static String mismatch(String builtWith, Map<String, String> onClassPath) {
        String line = releaseLine(builtWith);
        List<String> different = new ArrayList<>();
        for (String artifact : ARTIFACTS) {
            String version = onClassPath.get(artifact);
            if (version != null && !line.equals(releaseLine(version))) {
                different.add(artifact + ' ' + version);
            }
        }
        if (different.isEmpty()) {
            return null;
        }
        return "netty-ucx was built with Netty " + builtWith + " and needs Netty " + line + ".x, but the class path "
                + "has " + String.join(", ", different) + ". Use Netty " + line + ".x: in a Spring Boot build, set the "
                + "netty.version property (Maven) or ext['netty.version'] (Gradle) to " + builtWith
                + ", or import io.netty:netty-bom at that version.";
    }

    /** {@code major.minor} of a Netty version such as {@code 4.2.17.Final}; the whole text if it has no second dot. */
    static String releaseLine(String version) {
        int first = version.indexOf('.');
        int second = first < 0 ? -1 : version.indexOf('.', first + 1);
        return second < 0 ? version : version.substring(0, second);
    }
}
