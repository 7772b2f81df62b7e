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
 * transport then fails later with linkage errors far from the cause. A different major or minor release, or a
 * release of the line older than the oldest the build supports (its tests run on that one and on the newest it
 * names, {@link #RANGE_RESOURCE}), is logged as a warning at start-up, as Spring Boot itself warns about mismatched
 * versions rather than refusing to start. Later patch releases of the line are expected to work and draw no warning.
 */
final class NettyVersionCheck {
    /** Written into the transport's jar by its build, with the Netty version it was compiled and tested against. */
    static final String BUILD_RESOURCE = "/META-INF/io.github.nettyucx/netty-ucx-transport.properties";
    /** The Netty jars the transport itself links against: other Netty jars (tcnative) have versions of their own. */
    static final List<String> ARTIFACTS = List.of("netty-common", "netty-buffer", "netty-transport");
    /** Written into this jar by the build: the oldest Netty release supported and the newest tested. */
    static final String RANGE_RESOURCE = "/META-INF/io.github.nettyucx/netty-ucx-spring-boot-starter.properties";

    private NettyVersionCheck() {
    }

    /** Logs a warning when the class path's Netty is not of the release line the transport was built with. */
    static void warnOnMismatch(InternalLogger logger) {
        String builtWith = builtWith();
        if (builtWith == null) {
            logger.debug("netty-ucx: {} not found; the Netty version is not checked", BUILD_RESOURCE);
            return;
        }
        String warning = mismatch(builtWith, oldestSupported(), newestTested(), onClassPath());
        if (warning != null) {
            logger.warn(warning);
        }
    }

    /** The Netty version the transport on the class path was built with, or null when its jar does not say. */
    static String builtWith() {
        return property(BUILD_RESOURCE, "netty.version");
    }

    /** The oldest Netty release this build supports, or null when its jar does not say. */
    static String oldestSupported() {
        return property(RANGE_RESOURCE, "netty.oldestSupported");
    }

    /** The newest Netty release this build was tested with, or null when its jar does not say. */
    static String newestTested() {
        return property(RANGE_RESOURCE, "netty.newestTested");
    }

    /** A filled-in property of a resource of the transport's or this jar, or null. */
    private static String property(String resource, String name) {
        Class<?> owner = resource.equals(BUILD_RESOURCE) ? Ucx.class : NettyVersionCheck.class;
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty(name);
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
     * there has the major and minor release of {@code builtWith} and is not older than {@code oldest} (when known).
     * {@code newest} (may be null) only names the tested range in the warning.
     */
    static String mismatch(String builtWith, String oldest, String newest, Map<String, String> onClassPath) {
        String line = releaseLine(builtWith);
        List<String> different = new ArrayList<>();
        for (String artifact : ARTIFACTS) {
            String version = onClassPath.get(artifact);
            if (version != null && (!line.equals(releaseLine(version))
                    || oldest != null && compare(version, oldest) < 0)) {
                different.add(artifact + ' ' + version);
            }
        }
        if (different.isEmpty()) {
            return null;
        }
        String needs = oldest == null ? line + ".x" : oldest + " or a later " + line + ".x";
        String tested = oldest == null || newest == null ? "" : " (tested: " + oldest + " to " + newest + ")";
        return "netty-ucx was built with Netty " + builtWith + " and needs Netty " + needs + tested + ", but the "
                + "class path has " + String.join(", ", different) + ". Use Netty " + needs + ": in a Spring Boot "
                + "build, set the netty.version property (Maven) or ext['netty.version'] (Gradle) to " + builtWith
                + ", or import io.netty:netty-bom at that version.";
    }

    /** Compares two Netty versions by their numbers ({@code 4.2.13.Final} before {@code 4.2.20.Final}). */
    static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < 3; i++) {
            int c = Integer.compare(number(x, i), number(y, i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static int number(String[] parts, int i) {
        if (i >= parts.length) {
            return 0;
        }
        try {
            return Integer.parseInt(parts[i]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** {@code major.minor} of a Netty version such as {@code 4.2.17.Final}; the whole text if it has no second dot. */
    static String releaseLine(String version) {
        int first = version.indexOf('.');
        int second = first < 0 ? -1 : version.indexOf('.', first + 1);
        return second < 0 ? version : version.substring(0, second);
    }
}
