/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The registered-memory {@code ByteBufAllocator}: direct buffers in memory registered with UCX once, whose memory
 * handles the UCX transport passes with its sends and receives. Kept apart from the transport (as Netty keeps its
 * allocators in netty-buffer) and usable with any Netty channel.
 * <ul>
 *   <li>{@link io.github.nettyucx.buffer.UcxByteBufAllocator}: the allocator, {@code UcxByteBufAllocator.DEFAULT}
 *       configured by the {@code io.github.nettyucx.allocator.*} system properties;</li>
 *   <li>{@link io.github.nettyucx.buffer.UcxByteBufAllocatorMetric}: its memory use;</li>
 *   <li>{@link io.github.nettyucx.buffer.UcxOutOfMemoryError}: what an allocation beyond its limit throws.</li>
 * </ul>
 * {@link io.github.nettyucx.buffer.UcxMemoryRegistration} is public only for the transport and is not API;
 * everything else is package-private.
 */
package io.github.nettyucx.buffer;
