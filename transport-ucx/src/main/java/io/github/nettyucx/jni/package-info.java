/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * <strong>Internal:</strong> the native layer, the only code that calls the JNI library
 * ({@code libnetty_ucx_native}): {@link io.github.nettyucx.jni.UcxNative} declares every native method (with the C
 * file implementing it), {@link io.github.nettyucx.jni.UcxContext} owns the process's UCP context. It depends on
 * no other package of the project; the allocator ({@code io.github.nettyucx.buffer}) and the transport
 * ({@code io.github.nettyucx.transport}) are built on it. Public only because they live in other packages: not for
 * applications, and it may change in any release.
 */
package io.github.nettyucx.jni;
