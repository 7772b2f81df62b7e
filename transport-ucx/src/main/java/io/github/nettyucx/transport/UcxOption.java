/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxKernelOption;
import io.netty.channel.ChannelOption;

import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One option of a channel's configuration: the {@link ChannelOption} applications set, its default, the check a
 * value must pass, and for an option of the kernel's socket, where the kernel keeps it. Made by a
 * {@link UcxOptionTable}, which numbers its options; {@link UcxOptionValues} holds one channel's choices.
 *
 * @param <T> the option's value type
 */
final class UcxOption<T> {
    final ChannelOption<T> option;
    /** Position in its table, and in the values of a channel of that table. */
    final int index;
    private final Supplier<T> defaultValue;
    private final UnaryOperator<T> check;
    private final UcxKernelOption kernel;
    private final boolean flag;

    UcxOption(ChannelOption<T> option, int index, Supplier<T> defaultValue, UnaryOperator<T> check,
              UcxKernelOption kernel, boolean flag) {
        this.option = option;
        this.index = index;
        this.defaultValue = defaultValue;
        this.check = check;
        this.kernel = kernel;
        this.flag = flag;
    }

    T defaultValue() {
        return defaultValue.get();
    }

    /** {@code value}, or an {@link IllegalArgumentException} naming the option and what it takes. */
    T check(T value) {
        return check.apply(value);
    }

    /** Where the kernel keeps this option on a plain TCP socket; null when it is the channel's alone. */
    UcxKernelOption kernel() {
        return kernel;
    }

    /** The value as {@code setsockopt} takes it: 0 or 1 for a flag. */
    int toKernel(T value) {
        return flag ? (Boolean) value ? 1 : 0 : (Integer) value;
    }

    @SuppressWarnings("unchecked")
    T fromKernel(int value) {
        return (T) (flag ? Boolean.valueOf(value != 0) : Integer.valueOf(value));
    }

    @Override
    public String toString() {
        return option.name();
    }
}
