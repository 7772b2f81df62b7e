/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * netty-ucx's transport: the UCX channels, their event loop, the handshake with its trust rules and the
 * registered-memory allocator. The data paths ({@code io.github.nettyucx.datapath}) and the native layer
 * ({@code io.github.nettyucx.jni}) stay inside the module. The JNI library comes from the native module
 * of the machine's processor, {@code io.github.nettyucx.transport.linux.x86_64} or
 * {@code io.github.nettyucx.transport.linux.aarch_64}: nothing requires it, so that the transport loads without
 * it (and says why UCX is unavailable); an application on the module path adds it with {@code --add-modules}
 * or a {@code requires} of its own (docs/installing.md#the-module-path).
 */
module io.github.nettyucx.transport {
    requires transitive io.netty.buffer;
    requires transitive io.netty.common;
    requires transitive io.netty.transport;
    // The flight recorder's event (UcxConnectionSetupEvent, public for recordings' readers) is touched only where
    // the JVM has jdk.jfr (UcxConnectionSetup).
    requires static transitive jdk.jfr;

    exports io.github.nettyucx.buffer;
    exports io.github.nettyucx.handshake;
    exports io.github.nettyucx.loop;
    exports io.github.nettyucx.transport;
}
