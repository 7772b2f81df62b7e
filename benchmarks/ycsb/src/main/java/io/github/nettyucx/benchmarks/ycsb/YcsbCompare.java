/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.benchmarks.core.Spread;
import io.github.nettyucx.ycsb.YcsbMetric;
import io.github.nettyucx.ycsb.YcsbOutput;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * bin/demo's closing table: YCSB run summaries of two transports side by side, over repeated runs.
 * {@code YcsbCompare ucx=run1-ucx.txt,run2-ucx.txt epoll=run1-epoll.txt,run2-epoll.txt} gives each label its
 * summaries in run order. Printed: throughput and each operation's p99 as median [min - max] over the runs, and
 * then each run's ratio of the first label to the second (both measured in the same run, so slow drift of a
 * shared machine cancels out).
 */
public final class YcsbCompare {
    private static final int NAME_WIDTH = 20;
    private static final int VALUE_WIDTH = 28;
    private static final int RATIO_WIDTH = 9;

    private YcsbCompare() {
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options();
        CommandLine line = new CommandLine(options);
        try {
            line.parseArgs(args);
            if (CommandLine.printHelpIfRequested(line.getParseResult())) {
                return;
            }
            Map<String, List<YcsbOutput>> runs = new LinkedHashMap<>();
            for (Map.Entry<String, String> label : options.runs.entrySet()) {
                List<YcsbOutput> outputs = new ArrayList<>();
                for (String file : label.getValue().split(",")) {
                    outputs.add(YcsbOutput.read(Paths.get(file)));
                }
                runs.put(label.getKey(), outputs);
            }
            if (runs.values().stream().map(List::size).distinct().count() != 1) {
                throw new CommandLine.ParameterException(line, "every label needs the same number of runs");
            }
            print(runs, System.out);
        } catch (CommandLine.ParameterException e) {
            System.err.println("YcsbCompare: " + e.getMessage());
            line.usage(System.err);
            System.exit(2);
        }
    }

    @Command(name = "YcsbCompare", mixinStandardHelpOptions = true,
            description = "Compares YCSB run summaries per label: medians [min - max] and each run's ratio of the "
                    + "first label to the second.")
    private static final class Options {
        @Parameters(arity = "1..*", paramLabel = "LABEL=RUN1.txt[,RUN2.txt...]",
                description = "a label and its runs' summary files, in run order; every label the same number")
        Map<String, String> runs = new LinkedHashMap<>();
    }

    /** The table for summaries per label, each list in run order and all lists of the same length. */
    static void print(Map<String, List<YcsbOutput>> runs, PrintStream out) {
        List<String> labels = new ArrayList<>(runs.keySet());
        int runCount = runs.get(labels.get(0)).size();
        List<YcsbMetric> metrics = metrics(runs);

        out.printf(Locale.ROOT, "Median [min - max] over %d run(s):%n", runCount);
        StringBuilder header = new StringBuilder(pad("", NAME_WIDTH));
        labels.forEach(label -> header.append(pad(label, VALUE_WIDTH)));
        out.println(header.toString().stripTrailing());
        for (YcsbMetric metric : metrics) {
            StringBuilder row = new StringBuilder(pad(metric.label(), NAME_WIDTH));
            for (String label : labels) {
                row.append(pad(Spread.of(values(runs.get(label), metric)).format("%,.0f"), VALUE_WIDTH));
            }
            out.println(row.toString().stripTrailing());
        }
        StringBuilder failed = new StringBuilder(pad("failed operations", NAME_WIDTH));
        for (String label : labels) {
            long n = runs.get(label).stream().mapToLong(YcsbCompare::failed).sum();
            failed.append(pad(String.format(Locale.ROOT, "%,d in all", n), VALUE_WIDTH));
        }
        out.println(failed.toString().stripTrailing());
        if (labels.size() >= 2) {
            printRatios(runs, labels.get(0), labels.get(1), runCount, metrics, out);
        }
    }

    private static void printRatios(Map<String, List<YcsbOutput>> runs, String first, String second, int runCount,
                                    List<YcsbMetric> metrics, PrintStream out) {
        out.printf(Locale.ROOT, "%n%s / %s in the same run:%n", first, second);
        StringBuilder header = new StringBuilder(pad("", NAME_WIDTH));
        for (int run = 1; run <= runCount; run++) {
            header.append(pad("run " + run, RATIO_WIDTH));
        }
        out.println(header.append(pad("median", RATIO_WIDTH)).toString().stripTrailing());
        for (YcsbMetric metric : metrics) {
            List<Double> ratios = Spread.ratios(values(runs.get(first), metric), values(runs.get(second), metric));
            StringBuilder row = new StringBuilder(pad(metric.name(), NAME_WIDTH));
            ratios.forEach(r -> row.append(pad(ratio(r), RATIO_WIDTH)));
            row.append(pad(ratio(Spread.of(ratios).median()), RATIO_WIDTH));
            out.println(row.toString().stripTrailing());
        }
        out.printf(Locale.ROOT, "(ops/s above 1x: %s did more; p99 below 1x: %s answered sooner)%n", first, first);
    }

    /** Throughput, then the p99 of every operation any run measured, in the order YCSB printed them. */
    private static List<YcsbMetric> metrics(Map<String, List<YcsbOutput>> runs) {
        List<YcsbMetric> metrics = new ArrayList<>(List.of(YcsbMetric.THROUGHPUT));
        List<String> operations = new ArrayList<>();
        runs.values().forEach(list -> list.forEach(o -> o.operations().stream()
                .filter(op -> !operations.contains(op)).forEach(operations::add)));
        operations.forEach(op -> metrics.add(YcsbMetric.p99(op)));
        return metrics;
    }

    private static List<Double> values(List<YcsbOutput> outputs, YcsbMetric metric) {
        List<Double> values = new ArrayList<>();
        outputs.forEach(o -> values.add(metric.of(o)));
        return values;
    }

    private static long failed(YcsbOutput output) {
        long n = 0;
        for (String op : output.operations()) {
            for (Map.Entry<String, Long> e : output.returns(op).entrySet()) {
                n += e.getKey().equals("OK") ? 0 : e.getValue();
            }
        }
        return n;
    }

    private static String ratio(double r) {
        return Double.isFinite(r) ? String.format(Locale.ROOT, "%.2fx", r) : "-";
    }

    private static String pad(String s, int width) {
        return String.format(Locale.ROOT, "%-" + width + "s", s);
    }
}
