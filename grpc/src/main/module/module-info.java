/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * gRPC on the UCX transport with no code change: the two providers below rank above grpc-netty's own, so gRPC's
 * builders hand out grpc-netty builders on shared UCX event loops (the package's documentation says when they step
 * aside). gRPC's jars are automatic modules; {@code io.grpc.internal} (grpc-core) holds the {@code ObjectPool} that
 * grpc-netty takes its event loops from.
 */
module io.github.nettyucx.grpc {
    requires io.github.nettyucx.transport;
    requires io.grpc;
    requires io.grpc.internal;
    requires io.grpc.netty;

    exports io.github.nettyucx.grpc;

    provides io.grpc.ManagedChannelProvider with io.github.nettyucx.grpc.UcxManagedChannelProvider;
    provides io.grpc.ServerProvider with io.github.nettyucx.grpc.UcxServerProvider;
}
