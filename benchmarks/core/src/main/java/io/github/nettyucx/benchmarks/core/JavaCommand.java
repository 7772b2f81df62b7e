/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The command line of a child JVM that runs a main class of this JVM's class path with this JVM's
 * {@code java}. The project's system properties ({@code io.github.nettyucx.*}) given to this JVM are passed
 * on, so that a setting given to a coordinator (for example {@code -Dio.github.nettyucx.waitStrategy=sleep}
 * in {@code BENCH_JAVA_OPTS}) reaches the processes that do the work; more prefixes can be added.
 *
 * <p>Order: java, the forwarded properties, then the explicit JVM options (so an option given for this child
 * wins over the parent's setting of the same property), the class path, the main class and its arguments.
 */
public final class JavaCommand {
    /** The prefix of the system properties that are always forwarded. */
    public static final String PROJECT_PROPERTIES = "io.github.nettyucx.";

    private final String mainClass;
    private final List<String> jvmOptions = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final Set<String> forwardedPrefixes = new LinkedHashSet<>(List.of(PROJECT_PROPERTIES));

    private JavaCommand(String mainClass) {
        this.mainClass = mainClass;
    }

    public static JavaCommand of(Class<?> mainClass) {
        return of(mainClass.getName());
    }

    public static JavaCommand of(String mainClass) {
        return new JavaCommand(mainClass);
    }

    public JavaCommand jvmOptions(Collection<String> options) {
        jvmOptions.addAll(options);
        return this;
    }

    public JavaCommand args(Collection<String> values) {
        args.addAll(values);
        return this;
    }

    /** Also forwards this JVM's system properties whose names start with {@code prefix}. */
    public JavaCommand forwardProperties(String prefix) {
        forwardedPrefixes.add(prefix);
        return this;
    }

    /** {@code -Dname=value} for each forwarded system property of this JVM, sorted by name. */
    public List<String> forwardedProperties() {
        List<String> options = new ArrayList<>();
        for (String name : new TreeSet<>(System.getProperties().stringPropertyNames())) {
            if (forwardedPrefixes.stream().anyMatch(name::startsWith)) {
                options.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        return options;
    }

    public List<String> toList() {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(forwardedProperties());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /** The {@code java} of the JDK running this JVM. */
    static String javaExecutable() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Override
    public String toString() {
        return String.join(" ", toList());
    }
}
