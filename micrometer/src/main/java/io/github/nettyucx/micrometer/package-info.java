/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Micrometer meters for the UCX transport: {@link io.github.nettyucx.micrometer.UcxMetrics}, a {@code MeterBinder}
 * for the transport's counters and its allocators' memory.
 */
package io.github.nettyucx.micrometer;
