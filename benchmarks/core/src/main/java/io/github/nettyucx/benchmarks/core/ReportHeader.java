/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import io.netty.util.Version;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The block every benchmark report starts with, in one shape: the title, the command that produced the report, when,
 * on what machine and software, how loaded the machine was, and the benchmark's own facts of the run as further
 * lines of the same list. A report whose load average says the cores were oversubscribed says so under it.
 */
public final class ReportHeader {
    private final String title;
    private final String command;
    private ZonedDateTime started = ZonedDateTime.now();
    private String loadBefore;
    private String loadAfter;
    private final List<String> lines = new ArrayList<>();

    private ReportHeader(String title, String command) {
        this.title = title;
        this.command = command;
    }

    /** A header titled {@code title} for a report that {@code command} produced. */
    public static ReportHeader of(String title, String command) {
        return new ReportHeader(title, command);
    }

    /** When the run started (default: when this header was made). */
    public ReportHeader started(ZonedDateTime at) {
        this.started = at;
        return this;
    }

    /** The load averages ({@link MachineFacts#loadAverage()}) before and after the run. */
    public ReportHeader load(String before, String after) {
        this.loadBefore = before;
        this.loadAfter = after;
        return this;
    }

    /** One more fact of the run, as {@code - label: text}. */
    public ReportHeader line(String label, Object text) {
        lines.add("- " + label + ": " + text + "\n");
        return this;
    }

    /**
     * The machine and software in one line: CPU model and count, kernel, JVM, and the Netty and UCX the
     * transport uses.
     */
    public static String machine() {
        Version netty = Version.identify().get("netty-common");
        return MachineFacts.cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs, "
                + System.getProperty("os.name") + ' ' + System.getProperty("os.version") + ", Java "
                + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.name")
                + "), Netty " + (netty == null ? "unknown" : netty.artifactVersion()) + ", UCX "
                + MachineFacts.ucxVersion();
    }

    /** The Markdown of the header, a blank line after it. */
    public String markdown() {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n");
        md.append("- Command: `").append(command).append("`\n");
        md.append("- Date: ").append(started.truncatedTo(ChronoUnit.SECONDS)
                .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append('\n');
        md.append("- Machine: ").append(machine()).append('\n');
        if (loadBefore != null) {
            md.append("- Load average (1, 5, 15 min): ").append(loadBefore).append(" before, ").append(loadAfter)
                    .append(" after\n");
        }
        lines.forEach(md::append);
        md.append('\n');
        if (loadBefore != null && MachineFacts.overloaded(loadBefore, loadAfter)) {
            md.append("**The load average was above the number of CPUs while this ran:** both ends of a pair often "
                    + "waited for a CPU, so latencies include scheduling delays. Compare ratios within this run, "
                    + "and rerun on a quiet machine for figures to quote.\n\n");
        }
        return md.toString();
    }
}
