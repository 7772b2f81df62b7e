/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChildProcessTest {
    static final String FORWARDED = "io.github.nettyucx.supportTest.forwarded";

    @AfterEach
    void clearProperty() {
        System.clearProperty(FORWARDED);
    }

    @Test
    void aChildJvmGetsItsArgumentsEnvironmentAndTheProjectsPropertiesAndStopsWhenItsInputEnds()
            throws Exception {
        System.setProperty(FORWARDED, "from-parent");
        ProcessBuilder builder = new ProcessBuilder(JavaCommand.of(EchoChild.class)
                .jvmOptions(List.of("-Dsupport.test.option=explicit")).args(List.of("echo", "second")).toList())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("SUPPORT_TEST_VARIABLE", "from-environment");
        try (ChildProcess child = ChildProcess.start(builder)) {
            OutputLines lines = child.lines();
            assertEquals("ARGS echo,second", lines.next(60, TimeUnit.SECONDS));
            assertEquals("ENV from-environment", lines.next(30, TimeUnit.SECONDS));
            assertEquals("PROPERTY from-parent", lines.next(30, TimeUnit.SECONDS));
            assertEquals("OPTION explicit", lines.next(30, TimeUnit.SECONDS));

            OutputStream in = child.process().getOutputStream();
            in.write("hello\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            assertEquals("ECHO hello", lines.awaitPrefix("ECHO ", 30, TimeUnit.SECONDS));

            assertEquals(3, child.stop(30));
            assertNull(lines.next(30, TimeUnit.SECONDS), "end of output");
            assertNull(lines.next(), "still the end");
        }
    }

    @Test
    void aChildThatIgnoresItsInputIsKilledAndWaitingForItsOutputTimesOut() throws Exception {
        try (ChildProcess child = ChildProcess.start(new ProcessBuilder(JavaCommand.of(EchoChild.class)
                .args(List.of("hang")).toList()).redirectError(ProcessBuilder.Redirect.INHERIT))) {
            OutputLines lines = child.lines();
            assertEquals("OPTION null", lines.awaitPrefix("OPTION ", 60, TimeUnit.SECONDS));
            assertThrows(TimeoutException.class, () -> lines.next(200, TimeUnit.MILLISECONDS));
            assertThrows(TimeoutException.class, () -> lines.awaitPrefix("ECHO ", 200, TimeUnit.MILLISECONDS));
            assertTrue(child.cpuNanos() > 0 || child.cpuNanos() == -1);

            assertNull(child.stop(1), "killed, no exit code of its own");
            assertFalse(child.isAlive());
            assertNull(lines.next(30, TimeUnit.SECONDS), "output ends with the process");
        }
    }

    @Test
    void terminateLetsAProcessEndOnSigterm() throws Exception {
        ChildProcess sleeper = ChildProcess.start(new ProcessBuilder("sleep", "600"));
        try {
            assertTrue(sleeper.isAlive());
            Integer exit = sleeper.terminate(30);
            assertEquals(143, exit, "128 + SIGTERM");
        } finally {
            sleeper.close();
        }
    }

    @Test
    void killEndsAProcessAndWhatItStarted() throws Exception {
        ChildProcess shell = ChildProcess.start(new ProcessBuilder("sh", "-c", "sleep 600 & echo $!; wait"));
        String grandchild = shell.lines().next(30, TimeUnit.SECONDS);
        ProcessHandle sleep = ProcessHandle.of(Long.parseLong(grandchild.trim())).orElseThrow();
        assertTrue(sleep.isAlive());
        shell.close();
        assertFalse(shell.isAlive());
        sleep.onExit().get(30, TimeUnit.SECONDS);
        assertFalse(sleep.isAlive());
    }
}
