/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The transport's metrics as Micrometer meters: {@code io.github.nettyucx.micrometer.UcxMetrics}, a
 * {@code MeterBinder}.
 */
module io.github.nettyucx.micrometer {
    requires transitive io.github.nettyucx.transport;
    requires transitive micrometer.core;

    exports io.github.nettyucx.micrometer;
}
