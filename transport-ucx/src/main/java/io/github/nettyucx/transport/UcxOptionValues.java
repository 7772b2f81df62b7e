/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One channel's choices among the options of its {@link UcxOptionTable}: what the application set, else the
 * default. Any thread may set or read them.
 */
final class UcxOptionValues {
    /** Null where the application set nothing. */
    private final AtomicReferenceArray<Object> chosen;

    UcxOptionValues(UcxOptionTable table) {
        chosen = new AtomicReferenceArray<>(table.size());
    }

    @SuppressWarnings("unchecked")
    <T> T get(UcxOption<T> option) {
        Object value = chosen.get(option.index);
        return value != null ? (T) value : option.defaultValue();
    }

    /** Whether the application chose a value: only those are replayed onto a plain TCP socket. */
    boolean isSet(UcxOption<?> option) {
        return chosen.get(option.index) != null;
    }

    /** Checks and keeps {@code value}; returns it as kept. */
    <T> T set(UcxOption<T> option, T value) {
        T checked = option.check(value);
        chosen.set(option.index, checked);
        return checked;
    }
}
