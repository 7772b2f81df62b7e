/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import picocli.CommandLine;

/** How every benchmark main reads its command line with picocli. */
public final class CommandLines {
    private CommandLines() {
    }

    /** {@link #parse(String, Object, String[], Runnable)} without a check of its own. */
    public static boolean parse(String command, Object options, String[] args) {
        return parse(command, options, args, () -> { });
    }

    /**
     * Parses {@code args} into {@code options} and runs {@code check} (which throws
     * {@link IllegalArgumentException} on values picocli cannot judge alone). A bad argument prints its message
     * after {@code command}, then the usage, and exits with status 2. Returns false when the help was asked for
     * (and printed): the main then stops.
     */
    public static boolean parse(String command, Object options, String[] args, Runnable check) {
        CommandLine line = new CommandLine(options);
        try {
            line.parseArgs(args);
            check.run();
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
            System.err.println(command + ": " + e.getMessage());
            line.usage(System.err);
            System.exit(2);
            return false;
        }
        return !CommandLine.printHelpIfRequested(line.getParseResult());
    }
}
