/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * UCX run with other settings than its defaults, by the name every benchmark's transport list takes
 * ({@code --transports ucx,ucx-noslice,epoll}): each variant sets system properties in the JVMs of both ends, so a
 * run compares a setting with the default in alternating runs. One table for all benchmarks: a variant added here
 * is accepted by each of them.
 */
public enum UcxVariant {
    SPIN("ucx-spin", "the fixed spin before every sleep", "-Dio.github.nettyucx.waitStrategy=spin_then_sleep"),
    SPIN_THEN_SLEEP("ucx-spin_then_sleep", "the same as ucx-spin", "-Dio.github.nettyucx.waitStrategy=spin_then_sleep"),
    SLEEP("ucx-sleep", "loops that never spin: every wait sleeps in epoll", "-Dio.github.nettyucx.waitStrategy=sleep"),
    BUSY_POLL("ucx-busy_poll", "loops that never sleep", "-Dio.github.nettyucx.waitStrategy=busy_poll"),
    ADAPTIVE("ucx-adaptive", "the default wait strategy, named", "-Dio.github.nettyucx.waitStrategy=adaptive"),
    NOSLICE("ucx-noslice", "loops that keep the kernel's time slice", "-Dio.github.nettyucx.loopSliceMicros=0"),
    STARTUP("ucx-startup", "loops that spin through their start-up (the default, named)",
            "-Dio.github.nettyucx.startupSpinEvents=30000"),
    NOSTARTUP("ucx-nostartup", "loops that wait as usual through their start-up",
            "-Dio.github.nettyucx.startupSpinEvents=0");

    private final String id;
    private final String description;
    private final List<String> jvmOptions;

    UcxVariant(String id, String description, String... jvmOptions) {
        this.id = id;
        this.description = description;
        this.jvmOptions = List.of(jvmOptions);
    }

    /** The variant of this name (case and surrounding blanks ignored), if it is one. */
    public static Optional<UcxVariant> named(String name) {
        String id = name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(v -> v.id.equals(id)).findFirst();
    }

    /** Every variant with what it changes, for help texts and error messages. */
    public static String describeAll() {
        return Arrays.stream(values()).map(v -> v.id + " (" + v.description + ")").collect(Collectors.joining(", "));
    }

    public String id() {
        return id;
    }

    /** The options the JVMs of both ends get. */
    public List<String> jvmOptions() {
        return jvmOptions;
    }
}
