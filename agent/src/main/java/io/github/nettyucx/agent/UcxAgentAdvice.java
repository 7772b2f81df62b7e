/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * The advice woven into Netty's classes. Byte Buddy copies these bodies into Netty's methods, so they name no Netty
 * type and call only {@link UcxAgentHooks}, whose methods take and return {@code Object}. Every piece suppresses what
 * it throws: should the agent fail (or be invisible from Netty's class loader), Netty runs as it would without it.
 */
final class UcxAgentAdvice {
    private UcxAgentAdvice() {
    }

    /** On exit from {@code NioIoHandler/EpollIoHandler/IoUringIoHandler.newFactory(...)}. */
    static final class IoHandlerFactory {
        private IoHandlerFactory() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Origin("#t") String handlerType,
                         @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object factory) {
            factory = UcxAgentHooks.ioHandlerFactory(handlerType, factory);
        }
    }

    /** On entry to {@code AbstractBootstrap.channelFactory(io.netty.bootstrap.ChannelFactory)}. */
    static final class ChannelFactory {
        private ChannelFactory() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC)
                          Object factory) {
            factory = UcxAgentHooks.channelFactory(factory);
        }
    }

    /** Around {@code AbstractBootstrap.initAndRegister()}, which makes the channel with the bootstrap's factory. */
    static final class Registration {
        private Registration() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object bootstrap) {
            return UcxAgentHooks.registering(bootstrap);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        static void exit(@Advice.Enter Object previous) {
            UcxAgentHooks.registered(previous);
        }
    }
}
