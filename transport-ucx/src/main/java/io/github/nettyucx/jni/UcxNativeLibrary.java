/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import io.netty.util.internal.NativeLibraryLoader;
import io.netty.util.internal.PlatformDependent;

/**
 * The transport's JNI library. {@link UcxNative}'s static initialiser loads it, so that its natives are
 * registered ({@code JNI_OnLoad}) before any is called and before the constants that come from the
 * library are read; {@link UcxContext} names it when it explains why loading failed.
 */
public final class UcxNativeLibrary {
    private UcxNativeLibrary() {
    }

    /** {@code netty_ucx_native_<arch>}: the native jar holds {@code META-INF/native/lib<name>.so}. */
    public static String name() {
        return "netty_ucx_native_" + PlatformDependent.normalizedArch();
    }

    public static void load() {
        NativeLibraryLoader.load(name(), UcxNativeLibrary.class.getClassLoader());
    }
}
