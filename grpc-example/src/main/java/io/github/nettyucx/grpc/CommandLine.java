/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** {@code --name value} options, checked against the names a program knows. */
public final class CommandLine {
    private final Map<String, String> values = new HashMap<>();
    private final String usage;

    public CommandLine(String[] args, Set<String> known, Set<String> flags, String usage) {
        this.usage = usage;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                throw new UsageException(usage);
            }
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'\n" + usage);
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (flags.contains(name)) {
                values.put(name, value == null ? "true" : value);
                continue;
            }
            if (!known.contains(name)) {
                throw new UsageException("unknown option --" + name + "\n" + usage);
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageException("--" + name + " needs a value\n" + usage);
                }
                value = args[++i];
            }
            values.put(name, value);
        }
    }

    public String get(String name, String defaultValue) {
        return values.getOrDefault(name, defaultValue);
    }

    public boolean flag(String name) {
        return Boolean.parseBoolean(values.getOrDefault(name, "false"));
    }

    public int intValue(String name, int defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a whole number, not '" + v + "'\n" + usage);
        }
    }

    public double doubleValue(String name, double defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a number, not '" + v + "'\n" + usage);
        }
    }

    /** A bad command line: the message says what was wrong and how the program is used. */
    public static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }
}
