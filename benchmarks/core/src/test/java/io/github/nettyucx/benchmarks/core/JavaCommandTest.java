/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JavaCommandTest {
    private static final String PROJECT = "io.github.nettyucx.javaCommandTest.setting";
    private static final String OTHER = "io.grpc.javaCommandTest.setting";

    @AfterEach
    void clearProperties() {
        System.clearProperty(PROJECT);
        System.clearProperty(OTHER);
    }

    @Test
    void runsTheMainClassWithThisJvmsJavaAndClassPath() {
        List<String> command = JavaCommand.of("some.Main").jvmOptions(List.of("-Xmx64m"))
                .args(List.of("a", "b")).toList();
        assertTrue(command.get(0).endsWith("/bin/java"), command.get(0));
        assertTrue(command.get(0).startsWith(System.getProperty("java.home")), command.get(0));
        int cp = command.indexOf("-cp");
        assertEquals(System.getProperty("java.class.path"), command.get(cp + 1));
        assertEquals(List.of("some.Main", "a", "b"), command.subList(cp + 2, command.size()));
        assertTrue(command.indexOf("-Xmx64m") < cp);
    }

    @Test
    void forwardsTheProjectsPropertiesBeforeTheExplicitOptions() {
        System.setProperty(PROJECT, "sleep");
        System.setProperty(OTHER, "x");
        List<String> command = JavaCommand.of("some.Main").jvmOptions(List.of("-D" + PROJECT + "=busy_poll"))
                .toList();
        int forwarded = command.indexOf("-D" + PROJECT + "=sleep");
        int explicit = command.indexOf("-D" + PROJECT + "=busy_poll");
        assertTrue(forwarded > 0, command.toString());
        assertTrue(explicit > forwarded, "the explicit option comes later and wins: " + command);
        assertFalse(command.contains("-D" + OTHER + "=x"), "only io.github.nettyucx.* by default");
        assertFalse(command.stream().anyMatch(s -> s.startsWith("-Djava.")), command.toString());
    }

    @Test
    void forwardsMorePrefixesWhenAsked() {
        System.setProperty(OTHER, "x");
        assertTrue(JavaCommand.of("some.Main").forwardProperties("io.grpc.").forwardedProperties()
                .contains("-D" + OTHER + "=x"));
    }
}
