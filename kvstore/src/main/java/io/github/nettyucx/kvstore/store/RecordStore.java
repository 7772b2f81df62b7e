/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.store;

import io.netty.util.internal.ObjectUtil;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The records, in key order (for scans), safe for all event loops at once. Writes replace a key's
 * record by compare-and-set, so concurrent updates of one key never lose a field.
 *
 * <p>Memory accounting: a write first reserves the growth it causes; if that would pass the limit
 * the reservation is undone and the write refused, so the limit holds even under concurrent writers.
 * Shrinking writes and deletes are always allowed.
 */
public final class RecordStore {
    private final ConcurrentNavigableMap<String, StoredRecord> records = new ConcurrentSkipListMap<>();
    private final long maxBytes;
    private final AtomicLong usedBytes = new AtomicLong();
    // ConcurrentSkipListMap.size() walks the whole map.
    private final AtomicLong count = new AtomicLong();

    public RecordStore(long maxBytes) {
        this.maxBytes = ObjectUtil.checkPositive(maxBytes, "maxBytes");
    }

    public StoredRecord get(String key) {
        return records.get(key);
    }

    /** Inserts or replaces the whole record. */
    public void put(String key, Map<String, byte[]> fields) throws MemoryLimitException {
        StoredRecord next = StoredRecord.of(key, fields);
        while (true) {
            StoredRecord old = records.get(key);
            long growth = next.bytes() - (old == null ? 0 : old.bytes());
            reserve(growth);
            boolean swapped = old == null ? records.putIfAbsent(key, next) == null : records.replace(key, old, next);
            if (swapped) {
                if (old == null) {
                    count.incrementAndGet();
                }
                return;
            }
            usedBytes.addAndGet(-growth);
        }
    }

    /** Merges fields into an existing record; false when the key does not exist. */
    public boolean update(String key, Map<String, byte[]> changes) throws MemoryLimitException {
        while (true) {
            StoredRecord old = records.get(key);
            if (old == null) {
                return false;
            }
            StoredRecord next = old.merge(key, changes);
            long growth = next.bytes() - old.bytes();
            reserve(growth);
            if (records.replace(key, old, next)) {
                return true;
            }
            usedBytes.addAndGet(-growth);
        }
    }

    /** Removes a record; false when the key does not exist. */
    public boolean delete(String key) {
        StoredRecord old = records.remove(key);
        if (old == null) {
            return false;
        }
        usedBytes.addAndGet(-old.bytes());
        count.decrementAndGet();
        return true;
    }

    /** Up to {@code limit} records from {@code startKey} (inclusive) in key order. */
    public List<Map.Entry<String, StoredRecord>> scan(String startKey, int limit) {
        List<Map.Entry<String, StoredRecord>> out = new ArrayList<>(Math.min(limit, 1024));
        if (limit == 0) {
            return out;
        }
        for (Map.Entry<String, StoredRecord> e : records.tailMap(startKey, true).entrySet()) {
            out.add(e);
            if (out.size() == limit) {
                break;
            }
        }
        return out;
    }

    /** Records from {@code startKey} (inclusive) in key order, read lazily: stop whenever you like. */
    public Iterator<Map.Entry<String, StoredRecord>> from(String startKey) {
        return records.tailMap(startKey, true).entrySet().iterator();
    }

    public long recordCount() {
        return count.get();
    }

    public long usedBytes() {
        return usedBytes.get();
    }

    public long maxBytes() {
        return maxBytes;
    }

    private void reserve(long growth) throws MemoryLimitException {
        if (growth <= 0) {
            usedBytes.addAndGet(growth);
            return;
        }
        long used = usedBytes.addAndGet(growth);
        if (used > maxBytes) {
            usedBytes.addAndGet(-growth);
            throw new MemoryLimitException(maxBytes, used - growth, growth);
        }
    }
}
