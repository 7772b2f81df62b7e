/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.client;

import java.util.Map;

/** One row of a scan result. */
public record KeyRecord(String key, Map<String, byte[]> fields) {
}
