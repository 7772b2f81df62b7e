/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * gRPC on the UCX transport with no code change. {@link io.github.nettyucx.grpc.UcxManagedChannelProvider} and
 * {@link io.github.nettyucx.grpc.UcxServerProvider} are found by the service loader and rank above grpc-netty's
 * own providers, so {@code Grpc.newChannelBuilder}, {@code ManagedChannelBuilder.forTarget},
 * {@code Grpc.newServerBuilderForPort} and {@code ServerBuilder.forPort} return grpc-netty builders whose
 * channels run on shared {@code UcxEventLoopGroup}s. Where UCX cannot run, or with
 * {@code -Dio.github.nettyucx.grpc.enabled=false}, they step aside and grpc-netty serves as before.
 */
package io.github.nettyucx.grpc;
