/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One measurement: a value for each of its table's {@link ResultColumns}, kept as text. Numbers are written
 * with three decimals; a value that does not apply, or a NaN, stays empty. A row travels from the child JVM
 * that measured it to the coordinator as one {@code RESULT} line of tab-separated {@code key=value} pairs,
 * and ends as one CSV row.
 */
public final class ResultRow {
    /** What a result line starts with; other lines of a child's output are progress or diagnostics. */
    public static final String LINE_PREFIX = "RESULT\t";

    private final ResultColumns columns;
    private final Map<String, String> values = new LinkedHashMap<>();

    ResultRow(ResultColumns columns) {
        this.columns = columns;
        for (String name : columns.names()) {
            values.put(name, "");
        }
        values.put(ResultColumns.STATUS, ResultColumns.OK);
    }

    public static boolean isLine(String line) {
        return line.startsWith(LINE_PREFIX);
    }

    /**
     * Sets a column. Doubles and floats get three decimals, NaN and infinities become empty, null is empty;
     * tabs and line breaks become spaces so that the row stays one line.
     *
     * @throws IllegalArgumentException when the table has no such column
     */
    public ResultRow put(String column, Object value) {
        if (!columns.contains(column)) {
            throw new IllegalArgumentException("no column '" + column + "' in " + columns.names());
        }
        String text;
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            text = Double.isFinite(d) ? String.format(Locale.ROOT, "%.3f", d) : "";
        } else {
            text = value == null ? "" : String.valueOf(value);
        }
        values.put(column, text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' '));
        return this;
    }

    /** The column's text; empty when not set. */
    public String get(String column) {
        return values.getOrDefault(column, "");
    }

    /** The column as a number; NaN when empty or not a number. */
    public double number(String column) {
        String text = get(column);
        if (text.isEmpty()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** The column as a whole number (truncated); 0 when empty or not a number. */
    public int integer(String column) {
        double d = number(column);
        return Double.isNaN(d) ? 0 : (int) d;
    }

    /** Whether the status is {@value ResultColumns#OK}. */
    public boolean ok() {
        return ResultColumns.OK.equals(get(ResultColumns.STATUS));
    }

    /** The row as a {@code RESULT} line, for {@link ResultColumns#fromLine}. */
    public String toLine() {
        StringBuilder sb = new StringBuilder(LINE_PREFIX.trim());
        values.forEach((k, v) -> sb.append('\t').append(k).append('=').append(v));
        return sb.toString();
    }

    /** The row as CSV, in column order; a value with a comma or quote is quoted. */
    public String toCsv() {
        StringBuilder sb = new StringBuilder();
        for (String column : columns.names()) {
            if (!column.equals(columns.names().get(0))) {
                sb.append(',');
            }
            String v = get(column);
            if (v.contains(",") || v.contains("\"")) {
                v = '"' + v.replace("\"", "\"\"") + '"';
            }
            sb.append(v);
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return toLine();
    }
}
