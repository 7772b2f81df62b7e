/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MarkdownTableTest {
    @Test
    void headingSeparatorAndRows() {
        MarkdownTable table = new MarkdownTable().text("scenario").number("p50 µs").row("unary", 50.0)
                .row("stream", "-");
        assertEquals("| scenario | p50 µs |\n|---|---:|\n| unary | 50.0 |\n| stream | - |\n", table.toString());
    }

    @Test
    void aTableWithoutRowsIsItsHeading() {
        assertEquals("| a |\n|---|\n", new MarkdownTable().text("a").toString());
    }

    @Test
    void everyRowHasOneCellPerColumn() {
        assertThrows(IllegalArgumentException.class, () -> new MarkdownTable().text("a").text("b").row("only one"));
    }
}
