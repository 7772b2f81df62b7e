/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The columns of a benchmark's results, in CSV order. Every benchmark has a {@value #STATUS} column:
 * {@value #OK} until something went wrong, then what did ({@code failed}, {@code timeout}, ...).
 */
public final class ResultColumns {
    public static final String STATUS = "status";
    public static final String OK = "ok";

    private final List<String> names;
    private final Set<String> known;

    public ResultColumns(String... names) {
        this.names = List.of(names);
        this.known = Collections.unmodifiableSet(new LinkedHashSet<>(this.names));
        if (known.size() != names.length) {
            throw new IllegalArgumentException("duplicate column in " + this.names);
        }
        if (!known.contains(STATUS)) {
            throw new IllegalArgumentException("no " + STATUS + " column in " + this.names);
        }
    }

    public List<String> names() {
        return names;
    }

    public boolean contains(String name) {
        return known.contains(name);
    }

    /** A row with every column empty and the status {@value #OK}. */
    public ResultRow newRow() {
        return new ResultRow(this);
    }

    /**
     * The row a child process printed with {@link ResultRow#toLine()}.
     *
     * @throws IllegalArgumentException when the line is not a result line or names a column this table lacks
     */
    public ResultRow fromLine(String line) {
        if (!ResultRow.isLine(line)) {
            throw new IllegalArgumentException("not a " + ResultRow.LINE_PREFIX.trim() + " line: " + line);
        }
        ResultRow row = newRow();
        String[] parts = line.split("\t");
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                row.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
            }
        }
        return row;
    }

    public String csvHeader() {
        return String.join(",", names);
    }

    /** A results.csv: the header, then each row, one line each; every target writes its results so. */
    public String csv(Collection<ResultRow> rows) {
        StringBuilder csv = new StringBuilder(csvHeader()).append('\n');
        rows.forEach(r -> csv.append(r.toCsv()).append('\n'));
        return csv.toString();
    }
}
