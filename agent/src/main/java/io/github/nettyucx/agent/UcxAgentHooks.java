/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * What the advice in Netty's methods calls. Public because Netty's packages call it; not an API.
 *
 * <p>The first call decides, once for the process, whether the agent moves anything: its arguments parsed, the
 * application's Netty is one it supports and the one the agent's transport sees, and UCX can run here. If not, one
 * WARN says why and every later call hands back what it was given. Only once the answer is yes is
 * {@link UcxAgentRuntime}, which needs Netty 4.2 and the transport, loaded at all.
 */
public final class UcxAgentHooks {
    private enum State { UNDECIDED, ACTIVE, DECLINED }

    private static final ThreadLocal<Object> REGISTERING = new ThreadLocal<>();
    private static final List<String> WEAVING_FAILURES = new ArrayList<>();
    private static final List<String> WOVEN = new ArrayList<>();

    private static volatile State state = State.UNDECIDED;
    private static volatile AgentSettings settings;
    private static volatile String declined;
    /** Set while {@link #decide} runs (under the class's lock): a use of Netty meanwhile is the decision's own. */
    private static boolean deciding;

    private UcxAgentHooks() {
    }

    static void configure(AgentSettings s) {
        settings = s;
    }

    static void decline(String reason) {
        declined = reason;
    }

    static synchronized void weavingFailed(String typeName, Throwable cause) {
        WEAVING_FAILURES.add(typeName + ": " + cause);
    }

    static synchronized void woven(String typeName) {
        WOVEN.add(typeName);
    }

    static synchronized List<String> woven() {
        return new ArrayList<>(WOVEN);
    }

    static AgentSettings settings() {
        return settings;
    }

    /**
     * The factory a {@code newFactory} method of Netty's NIO, epoll or io_uring handler returns.
     *
     * @param handlerType the handler class whose method returns
     * @param factory     the factory it made
     * @return UCX's factory, or {@code factory} where the agent leaves this group alone
     */
    public static Object ioHandlerFactory(String handlerType, Object factory) {
        if (factory == null || factory.getClass().getName().startsWith("io.github.nettyucx.")
                || !active(factory.getClass())) {
            return factory;
        }
        return UcxAgentRuntime.ioHandlerFactory(handlerType, factory);
    }

    /**
     * The channel factory {@code AbstractBootstrap.channelFactory} stores.
     *
     * @param factory the application's factory (or Netty's, for {@code channel(Class)})
     * @return a factory that makes UCX channels for bootstraps whose groups run on UCX, or {@code factory}
     */
    public static Object channelFactory(Object factory) {
        if (factory == null || !active(factory.getClass())) {
            return factory;
        }
        return UcxAgentRuntime.channelFactory(factory);
    }

    /**
     * Notes the bootstrap whose {@code initAndRegister} runs on this thread.
     *
     * @param bootstrap the bootstrap
     * @return the one noted before, for {@link #registered(Object)}
     */
    public static Object registering(Object bootstrap) {
        Object previous = REGISTERING.get();
        REGISTERING.set(bootstrap);
        return previous;
    }

    /**
     * Restores what {@link #registering(Object)} returned, when {@code initAndRegister} returns or throws.
     *
     * @param previous the bootstrap noted before
     */
    public static void registered(Object previous) {
        if (previous == null) {
            REGISTERING.remove();
        } else {
            REGISTERING.set(previous);
        }
    }

    /** The bootstrap whose {@code initAndRegister} asks this thread's channel factory, or {@code null}. */
    static Object registeringBootstrap() {
        return REGISTERING.get();
    }

    private static boolean active(Class<?> nettyClass) {
        State s = state;
        if (s == State.UNDECIDED) {
            s = decide(nettyClass.getClassLoader());
        }
        return s == State.ACTIVE;
    }

    private static synchronized State decide(ClassLoader nettyLoader) {
        if (state != State.UNDECIDED) {
            return state;
        }
        if (deciding) {
            // Netty used while the transport loads, on this thread: that use keeps Netty's own transport.
            return State.DECLINED;
        }
        String why;
        deciding = true;
        try {
            why = declineReason(nettyLoader);
            if (why == null) {
                why = UcxAgentRuntime.activate(settings, new ArrayList<>(WEAVING_FAILURES));
            }
        } catch (RuntimeException | LinkageError e) {
            // A transport that cannot link against this Netty, for one: decided all the same, and said.
            why = "the transport could not start on this Netty: " + e;
        } finally {
            deciding = false;
        }
        if (why != null) {
            AgentLog.warn(nettyLoader, "netty-ucx agent: the application keeps Netty's own transports: " + why);
            state = State.DECLINED;
        } else {
            state = State.ACTIVE;
        }
        return state;
    }

    /** Why the agent cannot move this Netty, checked without loading the transport; {@code null} if it can try. */
    private static String declineReason(ClassLoader nettyLoader) {
        if (declined != null) {
            return declined + " (docs/agent.md lists them)";
        }
        NettyRelease release = NettyRelease.of(nettyLoader);
        String unsupported = release.unsupportedReason();
        if (unsupported != null) {
            return unsupported + ". Fix: run the application on a supported Netty, or start it without the agent";
        }
        ClassLoader mine = UcxAgentHooks.class.getClassLoader();
        Class<?> theirs = load("io.netty.channel.IoHandlerFactory", nettyLoader);
        if (theirs == null) {
            return "its Netty (release " + (release.known() ? release.version : "unknown") + ") has no IoHandler API;"
                    + " the agent supports " + NettyRelease.SUPPORTED;
        }
        if (load("io.netty.channel.IoHandlerFactory", mine) != theirs) {
            return "its Netty is loaded by " + nettyLoader + ", which the agent's transport (loaded by " + mine
                    + ") cannot use. Fix: put Netty on the application class path, or add netty-ucx-transport to the"
                    + " class loader that loads Netty and start without the agent";
        }
        return null;
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
