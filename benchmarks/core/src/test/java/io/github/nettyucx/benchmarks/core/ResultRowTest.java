/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultRowTest {
    private static final ResultColumns COLUMNS = new ResultColumns("transport", "size_bytes", "status", "p50_us",
            "note");

    @Test
    void aNewRowIsEmptyAndOk() {
        ResultRow row = COLUMNS.newRow();
        assertTrue(row.ok());
        assertEquals(",,ok,,", row.toCsv());
        assertEquals("transport,size_bytes,status,p50_us,note", COLUMNS.csvHeader());
        assertTrue(Double.isNaN(row.number("p50_us")));
        assertEquals(0, row.integer("size_bytes"));
    }

    @Test
    void numbersGetThreeDecimalsAndMissingValuesStayEmpty() {
        ResultRow row = COLUMNS.newRow().put("transport", "ucx").put("size_bytes", 65536).put("p50_us", 12.34567)
                .put("note", null);
        assertEquals("ucx,65536,ok,12.346,", row.toCsv());
        row.put("p50_us", Double.NaN);
        assertEquals("", row.get("p50_us"));
        row.put("p50_us", 1.5f);
        assertEquals("1.500", row.get("p50_us"));
        assertEquals(65536, row.integer("size_bytes"));
    }

    @Test
    void aCsvFileIsTheHeaderThenOneLinePerRow() {
        ResultRow a = COLUMNS.newRow().put("transport", "ucx");
        ResultRow b = COLUMNS.newRow().put("transport", "epoll").put("status", "failed");
        assertEquals("transport,size_bytes,status,p50_us,note\nucx,,ok,,\nepoll,,failed,,\n",
                COLUMNS.csv(List.of(a, b)));
        assertEquals("transport,size_bytes,status,p50_us,note\n", COLUMNS.csv(List.of()));
    }

    @Test
    void travelsAsOneLineAndComesBackTheSame() {
        ResultRow row = COLUMNS.newRow().put("transport", "epoll").put("size_bytes", 16).put("status", "timeout")
                .put("note", "line one\nline\ttwo, \"quoted\"");
        String line = row.toLine();
        assertTrue(ResultRow.isLine(line), line);
        assertFalse(line.contains("\n"));
        ResultRow back = COLUMNS.fromLine(line);
        assertEquals(row.toCsv(), back.toCsv());
        assertFalse(back.ok());
        assertEquals("epoll,16,timeout,,\"line one line two, \"\"quoted\"\"\"", back.toCsv());
    }

    @Test
    void anUnknownColumnIsAMistakeNotANewColumn() {
        assertThrows(IllegalArgumentException.class, () -> COLUMNS.newRow().put("p95_us", 1.0));
        assertThrows(IllegalArgumentException.class, () -> COLUMNS.fromLine("RESULT\tp95_us=1"));
        assertThrows(IllegalArgumentException.class, () -> COLUMNS.fromLine("PROGRESS 1"));
        assertThrows(IllegalArgumentException.class, () -> new ResultColumns("transport", "note"));
        assertThrows(IllegalArgumentException.class, () -> new ResultColumns("status", "status"));
    }
}
