/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.store;

import io.netty.buffer.ByteBufUtil;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable record: field name to value, and the bytes it counts against the memory limit
 * (UTF-8 key, names and values). Updates build a new record so readers never see a half-merged one.
 */
public final class StoredRecord {
    private final Map<String, byte[]> fields;
    private final long bytes;

    private StoredRecord(Map<String, byte[]> fields, long bytes) {
        this.fields = Collections.unmodifiableMap(fields);
        this.bytes = bytes;
    }

    static StoredRecord of(String key, Map<String, byte[]> fields) {
        Map<String, byte[]> copy = new LinkedHashMap<>(fields);
        return new StoredRecord(copy, size(key, copy));
    }

    StoredRecord merge(String key, Map<String, byte[]> changes) {
        Map<String, byte[]> merged = new LinkedHashMap<>(fields);
        merged.putAll(changes);
        return new StoredRecord(merged, size(key, merged));
    }

    private static long size(String key, Map<String, byte[]> fields) {
        long n = ByteBufUtil.utf8Bytes(key);
        for (Map.Entry<String, byte[]> e : fields.entrySet()) {
            n += ByteBufUtil.utf8Bytes(e.getKey()) + e.getValue().length;
        }
        return n;
    }

    public Map<String, byte[]> fields() {
        return fields;
    }

    /** The requested fields that exist (all fields when {@code names} is null). */
    public Map<String, byte[]> select(List<String> names) {
        if (names == null) {
            return fields;
        }
        Map<String, byte[]> selected = new LinkedHashMap<>();
        for (String name : names) {
            byte[] value = fields.get(name);
            if (value != null) {
                selected.put(name, value);
            }
        }
        return selected;
    }

    public long bytes() {
        return bytes;
    }
}
