/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A Markdown table of a report: a heading line, the separator line ({@code ---} for a text column, {@code ---:} for
 * a right-aligned number column) and one line per row, each cell between {@code "| "} and {@code " |"}.
 */
public final class MarkdownTable {
    private final List<String> headings = new ArrayList<>();
    private final List<String> separators = new ArrayList<>();
    private final StringBuilder rows = new StringBuilder();

    /** A left-aligned (text) column. */
    public MarkdownTable text(String heading) {
        headings.add(heading);
        separators.add("---");
        return this;
    }

    /** A right-aligned (number) column. */
    public MarkdownTable number(String heading) {
        headings.add(heading);
        separators.add("---:");
        return this;
    }

    /** A row, one cell per column, each written with {@link String#valueOf(Object)}. */
    public MarkdownTable row(Object... cells) {
        if (cells.length != headings.size()) {
            throw new IllegalArgumentException(cells.length + " cells for the " + headings.size() + " columns "
                    + headings + ": give one cell per column");
        }
        rows.append('|');
        for (Object cell : cells) {
            rows.append(' ').append(cell).append(" |");
        }
        rows.append('\n');
        return this;
    }

    /** The heading and separator lines, then the rows, each line ending in a newline. */
    @Override
    public String toString() {
        return "| " + String.join(" | ", headings) + " |\n|" + String.join("|", separators) + "|\n" + rows;
    }
}
