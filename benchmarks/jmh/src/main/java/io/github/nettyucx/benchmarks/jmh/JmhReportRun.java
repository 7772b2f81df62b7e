/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import io.github.nettyucx.benchmarks.core.MachineFacts;
import io.github.nettyucx.benchmarks.core.ReportHeader;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What the report mains share: JMH's command line, a run with the gc profiler whose own CSV goes to
 * {@code <stem>-jmh.csv} in {@code docs/microbench} (or {@code -Dmicrobench.out}), the command and
 * machine lines for the report, and the per-iteration samples of each result.
 */
final class JmhReportRun {
    static final String GC_NORM = "gc.alloc.rate.norm";

    final Path out;
    private final String command;
    private final ZonedDateTime started;
    private final String loadBefore;
    private final String loadAfter;
    final Collection<RunResult> results;

    private JmhReportRun(Path out, String command, ZonedDateTime started, String loadBefore, String loadAfter,
                         Collection<RunResult> results) {
        this.out = out;
        this.command = command;
        this.started = started;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.results = results;
    }

    /** The report's header: its title, the command, the machine, and the load average around the run. */
    ReportHeader header(String title) {
        return ReportHeader.of(title, command).started(started).load(loadBefore, loadAfter);
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
        ZonedDateTime started = ZonedDateTime.now();
        String loadBefore = MachineFacts.loadAverage();
        Collection<RunResult> results = new Runner(options.build()).run();
        String command = System.getProperty("microbench.command", reportName + " " + String.join(" ", args));
        return new JmhReportRun(out, command, started, loadBefore, MachineFacts.loadAverage(), results);
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
