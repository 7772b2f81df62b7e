/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxKernelOption;
import io.netty.channel.ChannelOption;
import io.netty.util.internal.ObjectUtil;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The options of one kind of channel, each declared once with its default, check and kernel name (see
 * {@link UcxSocketOptions}); the configuration finds them here by their {@link ChannelOption}.
 */
final class UcxOptionTable {
    private final List<UcxOption<?>> options = new ArrayList<>();
    private final Map<ChannelOption<?>, UcxOption<?>> byOption = new IdentityHashMap<>();

    /** A boolean option of the channel's own. */
    UcxOption<Boolean> flag(ChannelOption<Boolean> option, boolean defaultValue) {
        return flag(option, defaultValue, null);
    }

    /** A boolean option; with {@code kernel}, also the socket's of a plain TCP connection. */
    UcxOption<Boolean> flag(ChannelOption<Boolean> option, boolean defaultValue, UcxKernelOption kernel) {
        Boolean boxed = defaultValue;
        return add(option, () -> boxed, UnaryOperator.identity(), kernel, true);
    }

    /** An int option that takes any value. */
    UcxOption<Integer> number(ChannelOption<Integer> option, int defaultValue) {
        return number(option, defaultValue, UnaryOperator.identity(), null);
    }

    /** An int option between {@code min} and {@code max}. */
    UcxOption<Integer> number(ChannelOption<Integer> option, int defaultValue, int min, int max) {
        String name = shortName(option);
        return number(option, defaultValue, value -> ObjectUtil.checkInRange(value, min, max, name), null);
    }

    /** An int option; with {@code kernel}, also the socket's of a plain TCP connection. */
    UcxOption<Integer> number(ChannelOption<Integer> option, int defaultValue, UnaryOperator<Integer> check,
                              UcxKernelOption kernel) {
        Integer boxed = defaultValue;
        return add(option, () -> boxed, check, kernel, false);
    }

    /** An option of another type, whose default is found when first read. */
    <T> UcxOption<T> value(ChannelOption<T> option, Supplier<T> defaultValue, UnaryOperator<T> check) {
        return add(option, defaultValue, check, null, false);
    }

    private <T> UcxOption<T> add(ChannelOption<T> option, Supplier<T> defaultValue, UnaryOperator<T> check,
                                 UcxKernelOption kernel, boolean flag) {
        UcxOption<T> added = new UcxOption<>(option, options.size(), defaultValue, check, kernel, flag);
        if (byOption.putIfAbsent(option, added) != null) {
            throw new IllegalStateException(option.name() + " declared twice");
        }
        options.add(added);
        return added;
    }

    /** {@code UCX_RECV_WINDOW} for {@code io.github.nettyucx.transport.UcxChannelOption#UCX_RECV_WINDOW}. */
    static String shortName(ChannelOption<?> option) {
        String name = option.name();
        return name.substring(name.lastIndexOf('#') + 1);
    }

    /** The declaration of {@code option}, or null when this kind of channel does not have it. */
    @SuppressWarnings("unchecked")
    <T> UcxOption<T> find(ChannelOption<T> option) {
        return (UcxOption<T>) byOption.get(option);
    }

    List<UcxOption<?>> all() {
        return options;
    }

    ChannelOption<?>[] channelOptions() {
        return options.stream().map(o -> o.option).toArray(ChannelOption<?>[]::new);
    }

    int size() {
        return options.size();
    }
}
