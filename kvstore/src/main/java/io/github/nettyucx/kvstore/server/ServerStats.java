/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.server;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/** Counters shared by all connections of one server, reported by the STATS operation. */
final class ServerStats {
    final LongAdder connectionsOpen = new LongAdder();
    final LongAdder connectionsTotal = new LongAdder();
    final LongAdder requests = new LongAdder();
    final LongAdder errors = new LongAdder();
    final LongAdder corruptStreams = new LongAdder();
    final AtomicBoolean corruptStreamLogged = new AtomicBoolean();
}
