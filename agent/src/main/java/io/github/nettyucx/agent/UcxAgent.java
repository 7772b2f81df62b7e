/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;

import java.lang.instrument.Instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * The java agent: {@code java -javaagent:netty-ucx-agent.jar[=arguments] ...}. It weaves three small pieces of advice
 * into Netty as Netty's classes load (docs/agent.md):
 * <ul>
 *   <li>the static {@code newFactory} methods of {@code NioIoHandler}, {@code EpollIoHandler} and
 *       {@code IoUringIoHandler}, through which every NIO, epoll and io_uring event loop group of Netty 4.2 is built,
 *       return UCX's {@code IoHandlerFactory} instead;</li>
 *   <li>{@code AbstractBootstrap.channelFactory}, which {@code channel(Class)} also calls, wraps the application's
 *       channel factory in one that makes the UCX channel where the bootstrap's group runs on UCX;</li>
 *   <li>{@code AbstractBootstrap.initAndRegister} tells that factory which bootstrap asks.</li>
 * </ul>
 * Nothing is decided here: whether UCX can run and whether the application's Netty is supported is known only once
 * Netty is used, so the first piece of advice that runs decides ({@link UcxAgentHooks}).
 */
public final class UcxAgent {
    private UcxAgent() {
    }

    /**
     * Called by the JVM before the application's {@code main}.
     *
     * @param args the agent's arguments, as in docs/agent.md
     * @param inst the JVM's instrumentation
     */
    public static void premain(String args, Instrumentation inst) {
        install(args, inst);
    }

    /**
     * Called when the agent is attached to a running JVM; Netty's classes loaded before then are retransformed.
     *
     * @param args the agent's arguments, as in docs/agent.md
     * @param inst the JVM's instrumentation
     */
    public static void agentmain(String args, Instrumentation inst) {
        install(args, inst);
    }

    private static void install(String args, Instrumentation inst) {
        AgentSettings settings;
        try {
            settings = AgentSettings.parse(args);
        } catch (IllegalArgumentException e) {
            // Netty's logger is not there yet, and an agent that throws here stops the JVM: the advice below says it
            // once Netty runs, and the application keeps its own transports.
            UcxAgentHooks.decline("its arguments are wrong: " + e.getMessage());
            settings = null;
        }
        if (settings != null) {
            for (java.util.Map.Entry<String, String> e : settings.properties.entrySet()) {
                // A -D on the command line wins over the agent's argument of the same name.
                if (System.getProperty(e.getKey()) == null) {
                    System.setProperty(e.getKey(), e.getValue());
                }
            }
            UcxAgentHooks.configure(settings);
        }

        new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(new FailureListener())
                .ignore(not(nameStartsWith("io.netty.")))
                .type(named("io.netty.channel.nio.NioIoHandler")
                        .or(named("io.netty.channel.epoll.EpollIoHandler"))
                        .or(named("io.netty.channel.uring.IoUringIoHandler")))
                .transform((builder, type, loader, module, domain) -> builder.visit(
                        Advice.to(UcxAgentAdvice.IoHandlerFactory.class).on(isStatic().and(named("newFactory"))
                                .and(returns(named("io.netty.channel.IoHandlerFactory"))))))
                .type(named("io.netty.bootstrap.AbstractBootstrap"))
                .transform((builder, type, loader, module, domain) -> builder
                        .visit(Advice.to(UcxAgentAdvice.ChannelFactory.class).on(named("channelFactory")
                                .and(takesArguments(1))
                                .and(takesArgument(0, named("io.netty.bootstrap.ChannelFactory")))))
                        .visit(Advice.to(UcxAgentAdvice.Registration.class).on(named("initAndRegister")
                                .and(takesArguments(0)))))
                .installOn(inst);
    }

    /** Keeps what went wrong while weaving, for the first hook to log with Netty's logger. */
    private static final class FailureListener extends AgentBuilder.Listener.Adapter {
        @Override
        public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded,
                            Throwable throwable) {
            UcxAgentHooks.weavingFailed(typeName, throwable);
        }

        @Override
        public void onTransformation(TypeDescription typeDescription, ClassLoader classLoader, JavaModule module,
                                     boolean loaded, DynamicType dynamicType) {
            UcxAgentHooks.woven(typeDescription.getName());
        }
    }
}
