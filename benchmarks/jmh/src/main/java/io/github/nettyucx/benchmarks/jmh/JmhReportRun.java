/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * What the report mains share: JMH's command line, a run with the gc profiler whose own CSV goes to
 * {@code <stem>-jmh.csv} in {@code docs/microbench} (or {@code -Dmicrobench.out}), the command and
 * machine lines for the report, and the per-iteration samples of each result.
 */
final class JmhReportRun {
    static final String GC_NORM = "gc.alloc.rate.norm";

    final Path out;
    final String command;
    final String machine;
    final Collection<RunResult> results;

    private JmhReportRun(Path out, String command, String machine, Collection<RunResult> results) {
        this.out = out;
        this.command = command;
        this.machine = machine;
        this.results = results;
    }

    /**
     * Runs the benchmarks {@code args} select, or those matching {@code defaultInclude} when the
     * arguments name none. Exits with status 2 on bad JMH options.
     */
    static JmhReportRun run(String reportName, String stem, String defaultInclude, String[] args)
            throws IOException, RunnerException {
        CommandLineOptions cli;
        try {
            cli = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            System.err.println("bad JMH options: " + e.getMessage());
            System.exit(2);
            throw new IllegalStateException(e);
        }
        Path out = Path.of(System.getProperty("microbench.out", "docs/microbench"));
        Files.createDirectories(out);
        ChainedOptionsBuilder options = new OptionsBuilder().parent(cli).addProfiler(GCProfiler.class)
                .resultFormat(ResultFormatType.CSV).result(out.resolve(stem + "-jmh.csv").toString());
        if (cli.getIncludes().isEmpty()) {
            options.include(defaultInclude);
        }
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Collection<RunResult> results = new Runner(options.build()).run();
        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        String command = System.getProperty("microbench.command", reportName + " " + String.join(" ", args));
        String machine = String.format(Locale.ROOT,
                "%d CPUs, %s %s, Java %s (%s); load average %.1f before, %.1f after",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("java.version"),
                System.getProperty("java.vm.name"), loadBefore, loadAfter);
        return new JmhReportRun(out, command, machine, results);
    }

    void write(String fileName, String text) throws IOException {
        Files.writeString(out.resolve(fileName), text, StandardCharsets.UTF_8);
    }

    /** The primary score of every measurement iteration of {@code run}. */
    static List<Double> scores(RunResult run) {
        List<Double> scores = new ArrayList<>();
        for (BenchmarkResult fork : run.getBenchmarkResults()) {
            for (IterationResult iteration : fork.getIterationResults()) {
                scores.add(iteration.getPrimaryResult().getScore());
            }
        }
        return scores;
    }

    /** The gc profiler's bytes allocated per operation, for every measurement iteration that has it. */
    static List<Double> garbage(RunResult run) {
        List<Double> garbage = new ArrayList<>();
        for (BenchmarkResult fork : run.getBenchmarkResults()) {
            for (IterationResult iteration : fork.getIterationResults()) {
                Result<?> gc = iteration.getSecondaryResults().get(GC_NORM);
                if (gc != null) {
                    garbage.add(gc.getScore());
                }
            }
        }
        return garbage;
    }
}
